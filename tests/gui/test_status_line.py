"""The status bar always says where the operator is signed in, as whom, and where the cursor is."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor

from tests.live_server import LiveServer
from tests.window_steps import WindowFactory, sign_in
from widgets.window.main_window import MainWindow


def test_status_bar_names_the_server_and_the_person(
    qtbot, make_window: WindowFactory, live_server: LiveServer
) -> None:
    window = make_window()
    line = window.status_line
    assert line.server_label.text() == "Not connected"
    sign_in(qtbot, window, live_server.url, live_server.token("ann"))
    assert line.server_label.isVisible()
    assert line.server_label.text() == live_server.url
    assert line.person_label.text() == "Signed in as Ann"
    window.messages.info("Saved as v2.")  # a passing message hides neither
    assert line.server_label.isVisible() and line.person_label.isVisible()


def test_line_and_column_show_in_edit_only(qtbot, window: MainWindow) -> None:
    line = window.status_line
    assert not line.position_label.isVisible()
    window.actions_.edit.trigger()
    editor = window.task_tab.editor
    editor.go_to_line(3)
    assert line.position_label.isVisible()
    assert line.position_label.text() == "Ln 3, Col 1"
    editor.go_to_line(1)
    cursor = editor.textCursor()
    cursor.movePosition(QTextCursor.MoveOperation.Right, n=3)
    editor.setTextCursor(cursor)
    assert line.position_label.text() == "Ln 1, Col 4"
    window.actions_.preview.trigger()
    assert not line.position_label.isVisible()
