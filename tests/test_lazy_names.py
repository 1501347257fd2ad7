"""A lazy package writes its public names once, in ``_WHERE`` (``__all__`` is made from it);
the type checker's imports must name the same, and each name must load from where it says."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAZY = ("app.client", "app.render", "app.store")


def typed_imports(package: str) -> dict[str, str]:
    """Name → module of the package's ``if TYPE_CHECKING:`` imports."""
    tree = ast.parse((ROOT / package.replace(".", "/") / "__init__.py").read_text("utf-8"))
    typed: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for item in node.body:
                if isinstance(item, ast.ImportFrom) and item.module:
                    for alias in item.names:
                        # ``X as X``: an explicit re-export for the type checker
                        assert alias.asname == alias.name, f"{package}: {alias.name}"
                        typed[alias.name] = item.module
    return typed


def where(package: str) -> dict[str, str]:
    table = importlib.import_module(package)._WHERE
    return {name: module for module, names in table.items() for name in names}


@pytest.mark.parametrize("package", LAZY)
def test_the_type_checkers_names_are_the_packages_names(package: str) -> None:
    assert where(package), f"{package} has no _WHERE table"
    assert typed_imports(package) == where(package)
    assert importlib.import_module(package).__all__ == sorted(where(package))


@pytest.mark.parametrize("package", LAZY)
def test_each_name_loads_from_where_it_says(package: str) -> None:
    module = importlib.import_module(package)
    for name, home in where(package).items():
        assert getattr(module, name) is getattr(importlib.import_module(home), name), name


def test_a_name_the_package_lacks_is_an_attribute_error() -> None:
    module = importlib.import_module("app.store")
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        _ = module.Nothing
