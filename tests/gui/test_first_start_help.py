"""A first start says how editing starts, once; Help › Getting started has a short guide."""

from __future__ import annotations

from tests.window_steps import LOAD_TIMEOUT_MS, open_agent, said
from widgets.task.task_tab import EDIT_HINT
from widgets.window.main_window import MainWindow
from widgets.window.messages import Severity


def test_the_first_task_in_preview_says_how_to_edit_once(qtbot, window: MainWindow) -> None:
    assert said(window, Severity.INFO).count(EDIT_HINT) == 1
    open_agent(qtbot, window, "a_writer")
    assert said(window, Severity.INFO).count(EDIT_HINT) == 1  # once a session


def test_help_getting_started(qtbot, window: MainWindow) -> None:
    actions = window.actions_
    help_menu = window.menuBar().actions()[-1].menu()
    assert actions.getting_started in help_menu.actions()
    actions.getting_started.trigger()
    dialog = actions.getting_started_dialog
    assert dialog is not None and dialog.isVisible()
    text = dialog.steps_label.text()
    assert "Double-click the text" in text and "Ctrl+Alt+R" in text
    dialog.close_button.click()
    qtbot.waitUntil(lambda: actions.getting_started_dialog is None, timeout=LOAD_TIMEOUT_MS)


def test_the_hint_goes_from_the_status_line_once_editing_starts(qtbot, window: MainWindow) -> None:
    status = window.statusBar()
    qtbot.waitUntil(lambda: status.currentMessage() == EDIT_HINT, timeout=LOAD_TIMEOUT_MS)
    window.actions_.edit.trigger()
    qtbot.waitUntil(window.task_tab.editor.isVisible, timeout=LOAD_TIMEOUT_MS)
    assert status.currentMessage() != EDIT_HINT
