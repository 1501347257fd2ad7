"""The window's first size: roomy, but never larger than the screen it opens on."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QWidget

WANTED = QSize(1280, 800)
SCREEN_SHARE = 0.9  # leave room for the panel, the title bar and the window's frame


def first_size(available: QSize, wanted: QSize = WANTED) -> QSize:
    """``wanted``, shrunk to fit ``available`` (in the screen's logical pixels: at a larger
    font or scale, a 1400×900 screen may offer only 933×600 of them)."""
    return QSize(
        min(wanted.width(), int(available.width() * SCREEN_SHARE)),
        min(wanted.height(), int(available.height() * SCREEN_SHARE)),
    )


def size_to_screen(window: QWidget) -> None:
    """Give ``window`` its first size on the screen it will open on."""
    screen = window.screen()
    available = screen.availableGeometry().size() if screen is not None else WANTED
    window.resize(first_size(available).expandedTo(window.minimumSizeHint()))
