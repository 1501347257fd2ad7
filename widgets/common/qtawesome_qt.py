"""qtawesome's Qt names, fetched from PySide6 one by one instead of through qtpy's star imports."""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable

QT_MODULES = ("QtCore", "QtGui", "QtWidgets")


def install() -> bool:
    """Before qtawesome is imported: ``qtpy.QtCore``, ``qtpy.QtGui`` and ``qtpy.QtWidgets``
    become views of PySide6's modules that look a name up when it is asked for.

    qtawesome reaches Qt through qtpy, whose modules ``import *`` from PySide6's. That touches
    every Qt class, and PySide6 then builds each of their ~350 enums as a Python enum: 220 ms
    before the first paint, for the dozen names qtawesome uses. qtpy itself (which binding,
    its version constants) is imported as it is; this app runs on PySide6 only.

    Does nothing (False) when qtpy's modules are loaded already: whoever loaded them keeps them.
    """
    if "qtawesome" in sys.modules or any(f"qtpy.{name}" in sys.modules for name in QT_MODULES):
        return False
    import qtpy

    for name in QT_MODULES:
        view = types.ModuleType(f"qtpy.{name}", f"PySide6.{name}, looked up name by name")
        view.__dict__["__getattr__"] = _looked_up_in(importlib.import_module(f"PySide6.{name}"))
        sys.modules[view.__name__] = view
        setattr(qtpy, name, view)
    return True


def _looked_up_in(module: types.ModuleType) -> Callable[[str], object]:
    def attribute(name: str) -> object:
        return getattr(module, name)

    return attribute
