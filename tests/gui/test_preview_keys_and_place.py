"""In Preview, Ctrl+End and Ctrl+Home go to the bottom and the top (they did nothing), and
Edit → Preview shows the part of the Task the editor showed (it jumped to the top)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.client import TaskdeskClient
from tests.live_server import LiveServer
from tests.window_steps import LOAD_TIMEOUT_MS, open_agent, sign_in
from widgets.window.main_window import MainWindow

AGENT = "a_writer"
LONG = "# Writer\n\n" + "".join(f"Rule {n}: answer within a day.\n\n" for n in range(1, 200))


def _long_writer(qtbot, make_window, live_server: LiveServer) -> MainWindow:
    with TaskdeskClient(live_server.url, live_server.token("bob")) as bob:
        live = bob.get_task(AGENT)
        bob.put_task(AGENT, LONG, live.version)
    window = make_window()
    window.resize(1000, 700)
    sign_in(qtbot, window, live_server.url, live_server.token("ann"))
    open_agent(qtbot, window, AGENT)
    pane = window.task_tab.preview.pane
    qtbot.waitUntil(
        lambda: pane.verticalScrollBar().maximum() > 0 and not pane.is_laying_out(),
        timeout=LOAD_TIMEOUT_MS,
    )
    return window


def test_ctrl_end_and_ctrl_home_in_preview(qtbot, make_window, live_server: LiveServer) -> None:
    window = _long_writer(qtbot, make_window, live_server)
    pane = window.task_tab.preview.pane
    bar = pane.verticalScrollBar()
    pane.setFocus()
    qtbot.keyClick(pane, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    assert bar.value() == bar.maximum()
    qtbot.keyClick(pane, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    assert bar.value() == 0


def test_edit_then_preview_keeps_the_place(qtbot, make_window, live_server: LiveServer) -> None:
    window = _long_writer(qtbot, make_window, live_server)
    tab = window.task_tab
    window.actions_.edit.trigger()
    editor = tab.editor
    qtbot.waitUntil(editor.isVisible, timeout=LOAD_TIMEOUT_MS)
    editor.setFocus()
    editor_bar = editor.verticalScrollBar()
    editor_bar.setValue(editor_bar.maximum() * 3 // 4)  # three quarters down
    window.actions_.preview.trigger()
    bar = tab.preview.pane.verticalScrollBar()
    qtbot.waitUntil(tab.preview.pane.isVisible, timeout=LOAD_TIMEOUT_MS)
    assert abs(bar.value() / bar.maximum() - 0.75) < 0.05
    assert tab.preview.pane.hasFocus()
