"""After a banner's button, focus is back on the Task: the next keystrokes are never lost."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QApplication

from app.client import TaskdeskClient
from tests.live_server import LiveServer
from tests.window_steps import (
    LOAD_TIMEOUT_MS,
    close_window,
    open_agent,
    reopen_with_a_draft,
    saved,
    type_at_end,
)
from widgets.window.main_window import MainWindow


def _active(qtbot, window: MainWindow) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=LOAD_TIMEOUT_MS)


def _press(qtbot, button: QAbstractButton) -> None:
    """As from the keyboard: focus on the button, then Space."""
    button.setFocus(Qt.FocusReason.TabFocusReason)
    assert button.hasFocus()
    qtbot.keyClick(button, Qt.Key.Key_Space)


def _conflict(qtbot, window: MainWindow, bob: TaskdeskClient) -> None:
    open_agent(qtbot, window, "a_writer")
    base = bob.get_task("a_writer")
    bob.put_task("a_writer", base.content + "Bob's rule.\n", base.version)
    type_at_end(qtbot, window, "Ann's rule.")
    window.actions_.save.trigger()
    qtbot.waitUntil(window.task_tab.conflict_banner.isVisible, timeout=LOAD_TIMEOUT_MS)
    _active(qtbot, window)


def test_keep_mine_returns_focus_to_the_editor(qtbot, window: MainWindow, bob) -> None:
    _conflict(qtbot, window, bob)
    tab = window.task_tab
    _press(qtbot, tab.conflict_banner.keep_mine_button)
    flow = tab.conflict_flow  # Keep mine first shows the changes of theirs it throws away
    qtbot.waitUntil(lambda: flow.keep_mine_dialog is not None, timeout=LOAD_TIMEOUT_MS)
    assert flow.keep_mine_dialog is not None
    _press(qtbot, flow.keep_mine_dialog.confirm_button)
    qtbot.waitUntil(lambda: saved(window), timeout=LOAD_TIMEOUT_MS)
    qtbot.waitUntil(lambda: not tab.conflict_banner.isVisible())
    assert tab.editor.hasFocus(), QApplication.focusWidget()
    qtbot.keyClicks(tab.editor, "x")  # the next keystroke lands in the Task
    assert tab.has_unsaved()


def test_use_theirs_returns_focus_to_the_editor(qtbot, window: MainWindow, bob) -> None:
    _conflict(qtbot, window, bob)
    tab = window.task_tab
    _press(qtbot, tab.conflict_banner.use_theirs_button)
    dialog = tab.conflict_flow.confirm_dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.cancel_button.hasFocus)
    qtbot.keyClick(dialog.cancel_button, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(dialog.confirm_button, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: not tab.conflict_banner.isVisible(), timeout=LOAD_TIMEOUT_MS)
    assert window.focusWidget() is tab.editor  # where focus lands as the window is active
    _active(qtbot, window)  # the window manager gives the window back its focus
    assert tab.editor.hasFocus()


def test_closing_the_message_bar_returns_focus(qtbot, window: MainWindow) -> None:
    tab = window.task_tab
    window.actions_.edit.trigger()
    _active(qtbot, window)
    window.messages.warning("Something to read.")
    assert tab.message_bar.isVisible()
    _press(qtbot, tab.message_bar.close_button)
    assert not tab.message_bar.isVisible()
    assert tab.editor.hasFocus()


def test_draft_recover_and_discard_return_focus(
    qtbot, make_window, live_server: LiveServer
) -> None:
    for choice in ("recover_button", "discard_button"):
        second = reopen_with_a_draft(qtbot, make_window, live_server.url, live_server.token("ann"))
        tab = second.task_tab
        _active(qtbot, second)
        _press(qtbot, getattr(tab.draft_banner, choice))
        qtbot.waitUntil(lambda t=tab: not t.draft_banner.isVisible(), timeout=LOAD_TIMEOUT_MS)
        assert tab.work_area.focus_target().hasFocus(), (choice, QApplication.focusWidget())
        if choice == "recover_button":
            assert tab.editor.hasFocus()
        close_window(second)


def test_versions_key_moves_focus_into_the_version_list_from_preview(
    qtbot, window: MainWindow
) -> None:
    tab = window.task_tab
    _active(qtbot, window)
    assert tab.modes.currentWidget() is tab.preview
    tab.preview.pane.setFocus()
    qtbot.keyClick(
        tab.preview.pane,
        Qt.Key.Key_H,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert tab.versions.isVisible()
    assert tab.versions.list_view.hasFocus()
    qtbot.keyClick(
        tab.versions.list_view,
        Qt.Key.Key_H,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert not tab.versions.isVisible()
    assert tab.preview.pane.hasFocus()
