"""The window against a real server: title, sidebar, header, provenance, modes."""

from __future__ import annotations

from widgets.window.main_window import MainWindow


def test_opens_first_agent_in_preview_with_title_and_provenance(window: MainWindow) -> None:
    tab = window.task_tab
    assert window.windowTitle().endswith("— Taskdesk")
    name = tab.agent_name()
    assert window.windowTitle() == f"{name} — Taskdesk"
    assert tab.modes.currentWidget() is tab.preview
    assert window.actions_.preview.isChecked()


def test_the_window_opens_inside_the_available_screen(window: MainWindow) -> None:
    available = window.screen().availableGeometry()
    assert window.width() <= available.width() and window.height() <= available.height()
