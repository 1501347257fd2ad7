"""The window's size, position and splitter, remembered per screen set-up and kept on screen."""

from __future__ import annotations

import logging

from PySide6.QtCore import QByteArray, QRect
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow, QSplitter

from app.connect.settings import Settings
from app.connect.settings_owner import change_settings
from app.connect.settings_owner import settings as current_settings

log = logging.getLogger("taskdesk")


def screen_setup() -> str:
    """The screens attached now, by name and size: a key for where the window goes."""
    screens = QGuiApplication.screens()
    return "|".join(
        sorted(f"{s.name()}:{s.geometry().width()}x{s.geometry().height()}" for s in screens)
    )


def on_a_screen(frame: QRect) -> QRect:
    """``frame`` moved (and shrunk if need be) so that it lies on a screen: the one it
    overlaps most, else the primary one."""
    screens = QGuiApplication.screens()
    if not screens:
        return frame
    best = max(screens, key=lambda s: _area(s.availableGeometry().intersected(frame)))
    if _area(best.availableGeometry().intersected(frame)) == 0:
        best = QGuiApplication.primaryScreen() or screens[0]
    room = best.availableGeometry()
    width, height = min(frame.width(), room.width()), min(frame.height(), room.height())
    left = min(max(frame.left(), room.left()), room.right() - width + 1)
    top = min(max(frame.top(), room.top()), room.bottom() - height + 1)
    return QRect(left, top, width, height)


def _area(rect: QRect) -> int:
    return max(rect.width(), 0) * max(rect.height(), 0)


def restore_place(window: QMainWindow, splitter: QSplitter) -> None:
    """Put the window where it was on this screen set-up (else where it was last), on screen."""
    settings = current_settings()
    key = screen_setup()
    geometry = settings.window_geometries.get(key) or settings.window_geometry
    if geometry:
        window.restoreGeometry(QByteArray.fromBase64(geometry.encode("ascii")))
        if not window.isMaximized() and not window.isFullScreen():
            window.setGeometry(on_a_screen(window.geometry()))
    sizes = settings.splitters.get(key) or settings.splitter_sizes
    if len(sizes) == splitter.count() and any(sizes):
        splitter.setSizes(sizes)


def keep_place(window: QMainWindow, splitter: QSplitter) -> None:
    """Remember where the window is, for this screen set-up (written when it closes)."""
    geometry = bytes(window.saveGeometry().toBase64().data()).decode("ascii")
    sizes = splitter.sizes()
    key = screen_setup()

    def edit(settings: Settings) -> bool:
        settings.window_geometry, settings.splitter_sizes = geometry, sizes
        settings.window_geometries[key] = geometry
        settings.splitters[key] = sizes
        return True

    change_settings(edit)
