"""Starting a run is never a habit's keystroke: Ctrl+R does nothing, View › Start a run… (and
its shortcut) asks first, saying what a run gets and does, with Cancel the default."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from app.client import TaskdeskClient
from tests.live_server import LiveServer
from tests.window_steps import LOAD_TIMEOUT_MS, type_at_end
from widgets.insight.run_confirm import START_RUN_KEYS
from widgets.window.main_window import MainWindow


def _runs(live_server: LiveServer) -> int:
    with TaskdeskClient(live_server.url, live_server.token("ann")) as ann:
        return len(ann.runs("a_scout"))


def test_ctrl_r_starts_nothing_and_the_command_asks_first(
    qtbot, window: MainWindow, live_server: LiveServer
) -> None:
    insight = window.task_tab.insight
    action = insight.commands.start_run
    assert action.shortcut() == QKeySequence(START_RUN_KEYS)
    assert all(a.shortcut() != QKeySequence("Ctrl+R") for a in window.findChildren(type(action)))
    before = _runs(live_server)

    type_at_end(qtbot, window, " Unsaved rule.")
    action.trigger()
    dialog = insight.run_confirmation.dialog
    assert dialog is not None and dialog.isVisible()
    question = dialog.message_label.text()
    assert "Start a run of Scout now?" in question and "costs nothing" in question
    assert "unsaved edits are not in it" in question
    qtbot.keyClick(dialog, Qt.Key.Key_Return)  # Return by habit: Cancel, the default
    qtbot.waitUntil(lambda: insight.run_confirmation.dialog is None, timeout=LOAD_TIMEOUT_MS)
    assert window.runner.wait_idle(LOAD_TIMEOUT_MS)
    assert _runs(live_server) == before

    action.trigger()
    dialog = insight.run_confirmation.dialog
    assert dialog is not None
    dialog.confirm_button.click()
    qtbot.waitUntil(lambda: _runs(live_server) == before + 1, timeout=LOAD_TIMEOUT_MS)
