"""No closure of a widget outlives it: a lambda, partial or nested function connected to a
signal of an object handed in from outside (a shared model, the window's editor, an action)
stays connected after the widget is deleted, and then runs on a deleted object ("Internal C++
object already deleted"). A method is disconnected by Qt when its object is deleted, so a
connection to something handed in must go to a method."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("widgets", "app/desk")

# (file, class.method): where the object handed in dies first, so its closure dies with it.
ALLOWED = {
    # The dialog handed in is the sender: its own finished signal dies with it.
    ("widgets/insight/insight_flow.py", "InsightFlow.open_dialog"),
}


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _params(func: ast.FunctionDef) -> set[str]:
    args = func.args
    return {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]} - {"self"}


def _is_handed_in(value: ast.expr, params: set[str]) -> bool:
    """``value`` is a parameter itself, or one branch of a conditional is."""
    if isinstance(value, ast.Name):
        return value.id in params
    if isinstance(value, ast.IfExp):
        return _is_handed_in(value.body, params) or _is_handed_in(value.orelse, params)
    return False


def _root(node: ast.expr) -> tuple[str | None, str | None]:
    """(the name an expression starts from, the first attribute after ``self``)."""
    chain: list[str] = []
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        if isinstance(node, ast.Attribute):
            chain.append(node.attr)
        node = node.func if isinstance(node, ast.Call) else node.value
    name = node.id if isinstance(node, ast.Name) else None
    return name, (chain[-1] if name == "self" and chain else None)


def _is_closure(slot: ast.expr, local_defs: set[str]) -> bool:
    if isinstance(slot, ast.Lambda):
        return True
    if isinstance(slot, ast.Call):
        func = slot.func
        return getattr(func, "id", getattr(func, "attr", "")) == "partial"
    return isinstance(slot, ast.Name) and slot.id in local_defs


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


def closures_on_handed_in_signals(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        methods = [f for f in cls.body if isinstance(f, ast.FunctionDef)]
        handed_in_attrs: set[str] = set()
        for method in methods:
            params = _params(method)
            for node in ast.walk(method):
                if isinstance(node, ast.Assign) and _is_handed_in(node.value, params):
                    for target in node.targets:
                        if isinstance(target, ast.Attribute) and _names(target.value) == {"self"}:
                            handed_in_attrs.add(target.attr)
        for method in methods:
            params = _params(method)
            local_defs = {
                n.name
                for n in ast.walk(method)
                if isinstance(n, ast.FunctionDef) and n is not method
            }
            for node in ast.walk(method):
                if not (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "connect"
                    and node.args
                    and _is_closure(node.args[0], local_defs)
                ):
                    continue
                name, attr = _root(node.func.value)
                if name in params or attr in handed_in_attrs:
                    found.append(f"{_shown(path)}:{node.lineno} {cls.name}.{method.name}")
    return found


def test_no_closure_is_connected_to_a_signal_of_something_handed_in() -> None:
    found = [
        where
        for folder in SCANNED
        for path in sorted((ROOT / folder).rglob("*.py"))
        for where in closures_on_handed_in_signals(path)
        if (where.split(":")[0], where.split(" ")[1]) not in ALLOWED
    ]
    assert found == []


def test_the_check_sees_the_closure_that_outlived_the_insert_picker(tmp_path: Path) -> None:
    before_the_fix = tmp_path / "picker.py"
    before_the_fix.write_text(
        "class Picker(QDialog):\n"
        "    def __init__(self, notes):\n"
        "        self.model = notes if isinstance(notes, Model) else Model(notes)\n"
        "        self.model.modelReset.connect(lambda: self.label.setText(''))\n"
        "        self.own = QLabel()\n"
        "        self.own.linkActivated.connect(lambda _: None)\n",
        encoding="utf-8",
    )
    assert closures_on_handed_in_signals(before_the_fix) == ["picker.py:4 Picker.__init__"]
