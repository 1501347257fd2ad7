"""A package's public names loaded on first use (PEP 562 module ``__getattr__``).

A package whose modules are heavy (requests, the Markdown renderer, SQLite) lets a caller that
needs one light name import it without loading the rest before the window's first paint.

The package writes its names once, in ``_WHERE`` (module → names): ``lazy_names`` loads from
it and ``public_names`` is its ``__all__``. Type checkers can't read ``_WHERE``, so the package
also imports the same names under ``TYPE_CHECKING``; tests/architecture/test_lazy_packages.py
fails when the two differ.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

Where = Mapping[str, tuple[str, ...]]  # module → the public names it defines


def lazy_names(package: str, where: Where, namespace: dict[str, Any]) -> Callable[[str], object]:
    """The ``__getattr__`` for ``package``: a name once loaded is kept in the package's
    ``namespace`` so it is looked up only once."""
    module_of = {name: module for module, names in where.items() for name in names}

    def load(name: str) -> object:
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    return load


def public_names(where: Where) -> list[str]:
    """The package's ``__all__``: every name of ``where``, sorted."""
    return sorted(name for names in where.values() for name in names)
