"""Edits left unsaved when the window went away are offered back at the next start."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor

from tests.live_server import LiveServer
from widgets.dialogs.connect import ConnectRequest
from widgets.window.main_window import MainWindow

TIMEOUT = 10_000


def open_window(qtbot, make_window, live_server: LiveServer) -> MainWindow:
    window: MainWindow = make_window()
    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
        window.connect_to(ConnectRequest(live_server.url, live_server.token("ann"), False))
    return window


def test_draft_is_offered_with_agent_version_and_recovered(
    qtbot, make_window, live_server: LiveServer
) -> None:
    first = open_window(qtbot, make_window, live_server)
    base_version = first.task_tab.state.base_version
    first.actions_.edit.trigger()
    editor = first.task_tab.editor
    editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(editor, "Unsaved rule.")
    mine = editor.text()
    # The window goes without a save (as after a crash): the draft is what is left.
    first._closing_confirmed = True
    first.close()
    first.shutdown()

    second = open_window(qtbot, make_window, live_server)
    tab = second.task_tab
    qtbot.waitUntil(lambda: tab.draft_banner.isVisible(), timeout=TIMEOUT)
    text = tab.draft_banner.text()
    assert "Scout" in text and f"v{base_version}" in text
    assert tab.editor.text() != mine  # offered, not forced on the operator
    tab.draft_banner.recover_button.click()
    assert tab.editor.text() == mine
    assert tab.has_unsaved()
    assert not tab.draft_banner.isVisible()
