"""The window comes back where it was, per screen set-up, and always on a screen."""

from __future__ import annotations

import json

from PySide6.QtCore import QRect
from PySide6.QtGui import QGuiApplication

from app.connect.paths import settings_path
from tests.window_steps import WindowFactory, close_window
from widgets.window.window_place import on_a_screen, screen_setup


def test_size_position_and_splitter_come_back(qtbot, make_window: WindowFactory) -> None:
    first = make_window()
    first.resize(700, 480)  # fits the smallest screen a test runs on (offscreen: 800 × 600)
    first.move(40, 30)
    first.splitter.setSizes([260, 400])
    sizes = first.splitter.sizes()
    close_window(first)
    saved = json.loads(settings_path().read_text(encoding="utf-8"))
    assert saved["window_geometry"]
    assert screen_setup() in saved["window_geometries"]
    assert saved["splitters"][screen_setup()] == sizes

    second = make_window()
    assert (second.width(), second.height()) == (700, 480)
    assert second.splitter.sizes() == sizes


def test_a_place_off_every_screen_is_brought_back_on_one(qtbot) -> None:
    room = QGuiApplication.primaryScreen().availableGeometry()
    far = QRect(room.right() + 5_000, room.bottom() + 5_000, 700, 500)
    placed = on_a_screen(far)
    assert room.contains(placed)
    huge = on_a_screen(QRect(room.left() - 100, room.top(), room.width() * 3, room.height() * 3))
    assert room.contains(huge) and huge.width() == room.width()
