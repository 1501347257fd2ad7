"""A package's public names loaded on first use (PEP 562 module ``__getattr__``).

A package whose modules are heavy (requests, the Markdown renderer, SQLite) lets a caller that
needs one light name import it without loading the rest before the window's first paint.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(
    package: str, where: Mapping[str, str], namespace: dict[str, Any]
) -> Callable[[str], object]:
    """The ``__getattr__`` for ``package``: ``where`` maps each name to its module; a name
    once loaded is kept in the package's ``namespace`` so it is looked up only once."""

    def load(name: str) -> object:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    return load
