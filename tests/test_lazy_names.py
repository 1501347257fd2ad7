"""A lazy package names each public name three times (the type checker's imports, where it
loads from, ``__all__``): they must agree, and each must load from where it says."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAZY = ("app.client", "app.render", "app.store")


def three_lists(package: str) -> tuple[dict[str, str], dict[str, str], list[str]]:
    tree = ast.parse((ROOT / package.replace(".", "/") / "__init__.py").read_text("utf-8"))
    typed: dict[str, str] = {}
    where: dict[str, str] = {}
    every: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for item in node.body:
                if isinstance(item, ast.ImportFrom) and item.module:
                    for alias in item.names:
                        typed[alias.asname or alias.name] = item.module
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            name = getattr(target, "id", "")
            if name == "_WHERE" and isinstance(node.value, ast.Dict):
                where = {
                    ast.literal_eval(k): ast.literal_eval(v)
                    for k, v in zip(node.value.keys, node.value.values, strict=True)
                    if k is not None
                }
            elif name == "__all__" and node.value is not None:
                every = list(ast.literal_eval(node.value))
    return typed, where, every


@pytest.mark.parametrize("package", LAZY)
def test_the_three_lists_of_names_agree(package: str) -> None:
    typed, where, every = three_lists(package)
    assert where, f"{package} has no _WHERE table"
    assert typed == where, f"{package}: TYPE_CHECKING imports and _WHERE differ"
    assert sorted(every) == sorted(where), f"{package}: __all__ and _WHERE differ"


@pytest.mark.parametrize("package", LAZY)
def test_each_name_loads_from_where_it_says(package: str) -> None:
    module = importlib.import_module(package)
    for name, home in three_lists(package)[1].items():
        assert getattr(module, name) is getattr(importlib.import_module(home), name), name
