"""The note editor has the Task's offline saves and Preview: against the real server, stopped
and started again, in a real window."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.client import TaskdeskClient
from app.desk.note_drafts import draft_key
from tests.live_server import LiveServer
from widgets.notes.note_editor import SAVED_BACK, NoteEditorDialog
from widgets.notes.preview_actions import open_note_editor
from widgets.window.main_window import MainWindow

pytestmark = pytest.mark.timeout(120, method="thread")

TIMEOUT = 10_000
BACK_TIMEOUT = 40_000  # the owed save goes out on its own: 1, 2, 4 … s after each try
STYLE = "org/o_acme/guilds/guild_ops/style-guide.md"


def _editor(qtbot, window: MainWindow) -> NoteEditorDialog:
    connection = window.task_tab.connection
    assert connection is not None
    editor = open_note_editor(window.runner, connection, STYLE, window)
    qtbot.waitUntil(lambda: editor.session.doc is not None, timeout=TIMEOUT)
    assert not editor.editor.isReadOnly()
    return editor


def test_a_note_saved_while_the_server_is_down_goes_out_when_it_is_back(
    qtbot, window: MainWindow, live_server: LiveServer
) -> None:
    editor = _editor(qtbot, window)
    base = editor.session.doc
    assert base is not None
    live_server.stop()
    mine = editor.editor.text() + "Saved while the server was away.\n"
    editor.editor.set_text(mine)
    editor.save_button.click()
    qtbot.waitUntil(lambda: editor.session.save_owed, timeout=TIMEOUT)
    assert "saved when the server is back" in editor.status_label.text()
    assert editor.retry_button.isVisibleTo(editor)
    assert editor.save_button.isEnabled()  # Save again replaces what is owed
    connection = window.task_tab.connection
    assert connection is not None
    store, server = connection.store, connection.server_key
    qtbot.waitUntil(  # kept on disk while owed: a quit loses nothing
        lambda: (d := store.get_draft(server, draft_key(STYLE))) is not None and d.text == mine,
        timeout=TIMEOUT,
    )

    live_server.restart()  # no click: the owed save is sent again on its own
    expected = SAVED_BACK.format(version=base.version + 1)
    qtbot.waitUntil(lambda: editor.status_label.text() == expected, timeout=BACK_TIMEOUT)
    with TaskdeskClient(live_server.url, live_server.token("bob")) as bob:
        live = bob.note(STYLE)
    assert (live.text, live.version) == (mine, base.version + 1)
    assert not editor.retry_button.isVisibleTo(editor) and not editor.session.save_owed
    qtbot.waitUntil(lambda: store.get_draft(server, draft_key(STYLE)) is None, timeout=TIMEOUT)


def test_an_owed_note_save_meets_a_save_made_meanwhile_in_the_merge(
    qtbot, window: MainWindow, live_server: LiveServer
) -> None:
    from widgets.notes.note_editor import MERGED_CLEAN

    editor = _editor(qtbot, window)
    base = editor.editor.text()
    live_server.stop()
    editor.editor.set_text(base + "Ann's line, typed offline.\n")
    editor.save_button.click()
    qtbot.waitUntil(lambda: editor.session.save_owed, timeout=TIMEOUT)
    live_server.restart()
    with TaskdeskClient(live_server.url, live_server.token("bob")) as bob:
        bob.put_note(STYLE, "Bob's first line.\n" + base, 1)
    editor.retry_button.click()  # Try again now
    expected = MERGED_CLEAN.format(version=2)
    qtbot.waitUntil(lambda: editor.status_label.text() == expected, timeout=TIMEOUT)
    assert editor.editor.text() == "Bob's first line.\n" + base + "Ann's line, typed offline.\n"
    with TaskdeskClient(live_server.url, live_server.token("bob")) as bob:
        assert bob.note(STYLE).text == "Bob's first line.\n" + base  # nothing written over


def test_preview_shows_the_notes_rendered_text_and_edit_comes_back(
    qtbot, window: MainWindow
) -> None:
    editor = _editor(qtbot, window)
    editor.show()
    editor.editor.set_text("# House rules\n\nAnswer **within a day**.\n\n- Be kind\n")
    editor.preview_button.click()
    assert editor.in_preview and editor.preview_button.isChecked()
    qtbot.waitUntil(lambda: "House rules" in editor.preview.toPlainText(), timeout=TIMEOUT)
    shown = editor.preview.toPlainText()
    assert "Answer within a day." in shown and "Be kind" in shown
    assert "**" not in shown and "# " not in shown  # rendered, not the Markdown
    editor.editor.set_text("Changed while previewing.\n")  # a merge or a version put in
    qtbot.waitUntil(
        lambda: editor.preview.toPlainText().strip() == "Changed while previewing.",
        timeout=TIMEOUT,
    )
    qtbot.keyClick(
        editor,
        Qt.Key.Key_E,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert not editor.in_preview and editor.edit_button.isChecked()
    assert editor.work.currentWidget() is editor.editor
