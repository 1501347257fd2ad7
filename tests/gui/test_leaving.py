"""Every way of leaving unsaved edits asks first, and each answer does what it says."""

from __future__ import annotations

from app.client import TaskdeskClient
from tests.live_server import LiveServer
from tests.window_steps import type_at_end
from widgets.window.main_window import MainWindow

TIMEOUT = 10_000


def edit(qtbot, window: MainWindow, text: str = " More.") -> str:
    return type_at_end(qtbot, window, text)


def test_switching_agent_cancel_stays_discard_goes(qtbot, window: MainWindow) -> None:
    mine = edit(qtbot, window)
    window.on_agent_chosen("a_writer")
    dialog = window.leave_dialog
    assert dialog is not None and dialog.isVisible()
    assert "Scout" in dialog.message_label.text()
    dialog.cancel_button.click()
    assert window.task_tab.agent.id == "a_scout"
    assert window.task_tab.editor.text() == mine
    window.on_agent_chosen("a_writer")
    # Discard puts Scout's live text back first (so no draft of the dropped edits is left),
    # then Writer opens.
    with qtbot.waitSignal(
        window.agent_opened, timeout=TIMEOUT, check_params_cb=lambda agent: agent == "a_writer"
    ):
        window.leave_dialog.discard_button.click()
    assert window.windowTitle() == "Writer — Taskdesk"


def test_switching_agent_save_saves_then_switches(
    qtbot, window: MainWindow, live_server: LiveServer
) -> None:
    mine = edit(qtbot, window)
    window.on_agent_chosen("a_writer")
    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
        window.leave_dialog.save_button.click()
    with TaskdeskClient(live_server.url, live_server.token("bob")) as bob:
        assert bob.get_task("a_scout").content == mine
    assert window.task_tab.agent.id == "a_writer"


def test_closing_the_window_asks(qtbot, window: MainWindow) -> None:
    edit(qtbot, window)
    assert not window.close()  # refused for now: the question is open
    assert window.isVisible()
    assert window.leave_dialog is not None
    window.leave_dialog.cancel_button.click()
    assert window.isVisible()
    window.close()
    with qtbot.waitSignal(window.leave_dialog.finished):
        window.leave_dialog.discard_button.click()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=TIMEOUT)


def test_quit_asks(qtbot, window: MainWindow) -> None:
    edit(qtbot, window)
    window.actions_.quit.trigger()
    assert window.isVisible()
    assert window.leave_dialog is not None
    window.leave_dialog.cancel_button.click()
    assert window.isVisible()


def test_restoring_a_version_asks_about_unsaved_edits_first(qtbot, window: MainWindow) -> None:
    mine = edit(qtbot, window)
    window.actions_.versions.trigger()
    panel = window.task_tab.versions
    panel.select_row(1)
    panel.restore_button.click()
    assert window.leave_dialog is not None, "unsaved edits: ask before restoring"
    window.leave_dialog.cancel_button.click()
    assert window.task_tab.version_flow.restore_dialog is None
    assert window.task_tab.editor.text() == mine


def test_connecting_elsewhere_asks(qtbot, window: MainWindow) -> None:
    edit(qtbot, window)
    window.actions_.connect_server.trigger()
    assert window.leave_dialog is not None
    assert window.connect_dialog is None
    window.leave_dialog.cancel_button.click()
    assert window.connect_dialog is None


def test_discard_is_undoable(qtbot, window: MainWindow) -> None:
    original = window.task_tab.editor.text()
    mine = edit(qtbot, window)
    window.actions_.discard.trigger()
    editor = window.task_tab.editor
    qtbot.waitUntil(lambda: editor.text() == original, timeout=TIMEOUT)
    assert not window.task_tab.has_unsaved()
    editor.undo()
    assert editor.text() == mine
    assert window.task_tab.has_unsaved()


def test_no_question_without_edits(qtbot, window: MainWindow) -> None:
    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
        window.on_agent_chosen("a_writer")
    assert window.leave_dialog is None


def test_a_refused_save_forgets_the_quit_it_was_for(
    qtbot, window: MainWindow, live_server: LiveServer
) -> None:
    """Quit → Save → the server refuses (422): the window stays, and a later ordinary save of
    the fixed text saves and nothing more: the Quit was answered long ago."""
    edit(qtbot, window, " Refused once.")
    live_server.hook("fail", status=422, count=1, method="PUT", error="write refused")
    window.actions_.quit.trigger()
    tab = window.task_tab
    with qtbot.waitSignal(window.leave_dialog.finished, timeout=TIMEOUT):
        window.leave_dialog.save_button.click()
    qtbot.waitUntil(lambda: window.messages.error_box is not None, timeout=TIMEOUT)
    assert "write refused" in window.messages.error_box.text()
    window.messages.error_box.done(0)
    assert window.isVisible() and tab.state.dirty
    fixed = edit(qtbot, window, " Fixed.")
    with qtbot.waitSignal(tab.task_saved, timeout=TIMEOUT):
        window.actions_.save.trigger()
    assert tab.editor.text() == fixed and tab.state.saved_text_confirmed
    assert window.isVisible(), "the Quit answered before the refusal must not run now"
    assert window.task_tab.agent.id == "a_scout"
