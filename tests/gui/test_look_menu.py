"""View › Look: System, Light or Dark is a setting in the app (the environment variable was the
only way), shown at once and kept for the next start."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication

from app.connect.paths import settings_path
from app.connect.settings import load_settings
from tests.window_steps import LOAD_TIMEOUT_MS
from widgets.common.theme import DARK, LIGHT, current_theme, scheme_follower
from widgets.window.main_window import MainWindow


@pytest.fixture
def back_to_the_system_look(qapp: QApplication) -> Iterator[None]:
    """The application's look and follower as they were: other tests never see this one's."""
    from widgets.common.theme import SchemeFollower

    style_sheet, palette = qapp.styleSheet(), qapp.palette()
    had = qapp.findChild(SchemeFollower)
    yield
    follower = qapp.findChild(SchemeFollower)
    if follower is not None and follower is not had:
        follower.setParent(None)
        follower.deleteLater()
    elif isinstance(had, SchemeFollower):
        had.set_choice("system")
    qapp.setStyleSheet(style_sheet)
    qapp.setPalette(palette)


def test_view_look_switches_and_is_kept(
    qtbot, window: MainWindow, back_to_the_system_look: None
) -> None:
    menu = window.look_menu
    view_texts = [a.text() for a in window.actions_.view_menu.actions()]
    assert "Loo&k" in view_texts
    assert menu.actions["system"].isChecked()

    menu.choose("dark")
    assert current_theme() is DARK
    assert menu.actions["dark"].isChecked() and not menu.actions["system"].isChecked()
    qtbot.waitUntil(
        lambda: load_settings(settings_path()).settings.look == "dark", timeout=LOAD_TIMEOUT_MS
    )
    menu.choose("light")
    assert current_theme() is LIGHT
    qtbot.waitUntil(
        lambda: load_settings(settings_path()).settings.look == "light", timeout=LOAD_TIMEOUT_MS
    )


def test_the_kept_look_is_the_next_windows(
    qtbot, make_window, qapp: QApplication, back_to_the_system_look: None
) -> None:
    from app.connect.settings import Settings, save_settings
    from widgets.window.look_menu import saved_look

    save_settings(Settings(look="dark"), settings_path())
    scheme_follower(qapp).set_choice(saved_look())  # as the launcher does before the window
    window = make_window()
    assert current_theme() is DARK
    assert window.look_menu.actions["dark"].isChecked()
