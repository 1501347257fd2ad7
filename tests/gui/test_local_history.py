"""File › Local history in the real window: a discarded text is there and goes back in."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor

from tests.window_steps import type_at_end
from widgets.versions.local_history_dialog import LocalHistoryDialog
from widgets.window.main_window import MainWindow

TIMEOUT = 10_000


def test_discarded_text_can_be_found_and_inserted_back(qtbot, window: MainWindow) -> None:
    tab = window.task_tab
    original = tab.editor.text()
    mine = type_at_end(qtbot, window, "Never close a ticket on Friday.")
    window.actions_.discard.trigger()
    qtbot.waitUntil(lambda: tab.editor.text() == original, timeout=TIMEOUT)
    assert not tab.has_unsaved()

    assert window.actions_.local_history.isEnabled()
    window.actions_.local_history.trigger()
    dialog = tab.insert_dialogs.history_dialog
    assert isinstance(dialog, LocalHistoryDialog) and dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.state == "ready", timeout=TIMEOUT)
    newest = dialog.model.entry_at(0)
    assert newest is not None and newest.text == mine
    assert newest.reason_label == "Discarded"
    assert dialog.text_view.toPlainText() == mine

    tab.editor.moveCursor(QTextCursor.MoveOperation.Start)
    dialog.insert_button.click()
    assert tab.insert_dialogs.history_dialog is None and not dialog.isVisible()
    assert tab.modes.currentWidget() is not tab.preview  # the insert is seen in Edit
    assert tab.editor.text() == mine + original  # at the cursor, nothing overwritten
    assert tab.has_unsaved()
    tab.editor.undo()  # one step takes the whole insert back
    assert tab.editor.text() == original
