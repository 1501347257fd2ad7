"""A widget shown offscreen at a known size, for the tests that paint, click or measure it."""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

W = TypeVar("W", bound=QWidget)


def shown(qtbot: QtBot, widget: W, size: tuple[int, int] | None = None) -> W:
    """``widget`` closed when the test ends, resized to ``size``, shown and exposed."""
    qtbot.addWidget(widget)
    if size is not None:
        widget.resize(*size)
    widget.show()
    qtbot.waitExposed(widget)
    return widget
