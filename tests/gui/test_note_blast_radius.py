"""A note's preview says who uses it; its editor weighs an edit, merges a conflict, and saves."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt

from app.client import TaskdeskClient
from app.desk.note_session import DELETED_WHILE_OPEN, READ_ONLY
from tests.live_server import LiveServer
from tests.window_steps import WindowFactory, sign_in
from widgets.notes.note_editor import MERGED_CLEAN, SAVED
from widgets.notes.preview_actions import EMBEDDED, NoteActions
from widgets.window.main_window import MainWindow

TIMEOUT = 10_000
STYLE = "org/o_acme/guilds/guild_ops/style-guide.md"


@pytest.fixture
def bob(live_server: LiveServer) -> Iterator[TaskdeskClient]:
    with TaskdeskClient(live_server.url, live_server.token("bob")) as client:
        yield client


def _preview(qtbot, window: MainWindow, path: str) -> NoteActions:
    links = window.task_tab.links
    links.on_embed_clicked(path)
    qtbot.waitUntil(lambda: links.note_dialog is not None, timeout=TIMEOUT)
    actions = links.note_actions
    assert actions is not None and actions.dialog is links.note_dialog
    return actions


def _editor(qtbot, actions: NoteActions):  # -> NoteEditorDialog
    actions.edit_button.click()
    editor = actions.editor
    assert editor is not None
    qtbot.waitUntil(lambda: editor.session.doc is not None, timeout=TIMEOUT)
    return editor


def test_the_preview_says_who_uses_the_note_and_opens_one(qtbot, window: MainWindow) -> None:
    actions = _preview(qtbot, window, STYLE)
    panel = actions.used_by
    qtbot.waitUntil(lambda: panel.model.rowCount() > 0, timeout=TIMEOUT)
    assert panel.summary_label.text() == (
        "Used by 2 agents (2 at hop 1, 0 at hop 2; 0 get the marker)"
    )
    assert panel.summary_label.textFormat() == Qt.TextFormat.PlainText
    guild = panel.model.index(0, 0)
    assert guild.data() == "Operations"  # grouped by guild, named
    writer = panel.model.index(1, 0, guild)
    assert writer.data() == "Writer (a_writer)"
    with qtbot.waitSignal(window.task_tab.links.agent_requested) as asked:
        panel.tree.activated.emit(writer)
    assert asked.args == ["a_writer"]
    qtbot.waitUntil(
        lambda: window.task_tab.agent is not None and window.task_tab.agent.id == "a_writer",
        timeout=TIMEOUT,
    )


def test_delete_lists_the_agents_whose_tasks_embed_it(qtbot, window: MainWindow) -> None:
    actions = _preview(qtbot, window, STYLE)
    actions.delete_button.click()
    assert actions.confirm_dialog is not None
    actions.confirm_dialog.confirm_button.click()
    panel = actions.used_by
    qtbot.waitUntil(lambda: panel.summary_label.text() == EMBEDDED, timeout=TIMEOUT)
    rows = [panel.model.index(r, 0).data() for r in range(panel.model.rowCount())]
    assert rows == ["a_scout", "a_writer"]


def test_an_edit_is_weighed_then_saved(qtbot, window: MainWindow, bob: TaskdeskClient) -> None:
    editor = _editor(qtbot, _preview(qtbot, window, STYLE))
    assert not editor.editor.isReadOnly()
    editor.editor.set_text(editor.editor.text() + "x" * 70_000)
    editor.save_button.click()
    qtbot.waitUntil(lambda: editor.confirm_dialog is not None, timeout=TIMEOUT)
    assert editor.impact.summary_label.text() == (
        "Changes the prompt of 2 agents; 2 would go over 64 KB; 0 gain an unreachable embed"
    )
    assert "(over 64 KB)" in editor.impact.model.index(0, 2).data()
    editor.confirm_dialog.confirm_button.click()  # Save anyway
    qtbot.waitUntil(lambda: editor.status_label.text() == SAVED.format(version=2), timeout=TIMEOUT)
    assert bob.note(STYLE).text.endswith("x" * 70_000)


def test_a_note_saved_meanwhile_is_merged_into_the_editor(
    qtbot, window: MainWindow, bob: TaskdeskClient
) -> None:
    editor = _editor(qtbot, _preview(qtbot, window, STYLE))
    base = editor.editor.text()
    bob.put_note(STYLE, "Bob's first line.\n" + base, 1)
    editor.editor.set_text(base + "Ann's last line.\n")
    editor.save_button.click()
    expected = MERGED_CLEAN.format(version=2)
    qtbot.waitUntil(lambda: editor.status_label.text() == expected, timeout=TIMEOUT)
    assert editor.editor.text() == "Bob's first line.\n" + base + "Ann's last line.\n"
    editor.save_button.click()
    qtbot.waitUntil(lambda: editor.status_label.text() == SAVED.format(version=3), timeout=TIMEOUT)


def test_a_note_deleted_while_open_keeps_the_text(
    qtbot, window: MainWindow, bob: TaskdeskClient
) -> None:
    path = "org/o_acme/guilds/guild_ops/lone.md"
    bob.create_note(path, "Lone", "Alone.\n", ())
    editor = _editor(qtbot, _preview(qtbot, window, path))
    bob.delete_note(path)
    editor.editor.set_text("Mine.\n")
    editor.save_button.click()
    qtbot.waitUntil(lambda: editor.status_label.text() == DELETED_WHILE_OPEN, timeout=TIMEOUT)
    assert editor.editor.text() == "Mine.\n" and not editor.save_button.isEnabled()


def test_a_member_reads_a_note_without_write_read_only(
    qtbot, make_window: WindowFactory, live_server: LiveServer, bob: TaskdeskClient
) -> None:
    path = "org/o_acme/shared.md"
    bob.create_note(path, "Shared", "Read me.\n", ())
    bob.put_note(path, "Read me.\n", 1)
    window = make_window()
    sign_in(qtbot, window, live_server.url, live_server.token("mia"))
    from app.core.models import AccessEntry

    bob.delete_note(path)
    bob.create_note(path, "Shared", "Read me.\n", (AccessEntry("user:u_mia", "read"),))
    actions = _preview(qtbot, window, path)
    qtbot.waitUntil(
        lambda: "Only operators" in actions.used_by.summary_label.text(), timeout=TIMEOUT
    )
    editor = _editor(qtbot, actions)
    assert editor.editor.isReadOnly() and editor.status_label.text() == READ_ONLY
    assert not editor.save_button.isEnabled()


OUTPUTS = "## Outputs\n- A short list of flagged tickets, each with one line on why.\n"


def test_move_to_a_note_keeps_the_run_but_for_the_wrapper_and_undoes_in_one_step(
    qtbot, window: MainWindow, bob: TaskdeskClient
) -> None:
    from PySide6.QtGui import QTextCursor

    from widgets.notes.move_flow import MOVED
    from widgets.notes.move_to_note import SAME, UNDO

    before_run = bob.create_run("a_scout").task_text
    tab = window.task_tab
    tab.set_mode_edit(True)
    editor = tab.editor
    original = editor.toPlainText()
    start = original.index(OUTPUTS)
    cursor = editor.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(start + len(OUTPUTS), QTextCursor.MoveMode.KeepAnchor)
    editor.setTextCursor(cursor)
    window.actions_.move_to_note.trigger()
    flow = tab.task_commands.move_to_note
    dialog = flow.dialog
    assert dialog is not None
    path = "org/o_acme/guilds/guild_ops/outputs.md"
    assert (dialog.path_edit.text(), dialog.title_edit.text()) == (path, "Outputs")
    qtbot.waitUntil(lambda: dialog.check_label.text() == SAME, timeout=TIMEOUT)
    assert dialog.undo_label.text() == UNDO
    assert dialog.readers_label.text() == "Reaches 2 agents: Scout, Writer."
    dialog.move_button.click()
    qtbot.waitUntil(lambda: flow.dialog is None, timeout=TIMEOUT)
    embedded = original.replace(OUTPUTS, f"![[{path}]]\n", 1)
    assert editor.toPlainText() == embedded
    assert bob.note(path).text == OUTPUTS
    assert window.statusBar().currentMessage() == MOVED.format(path=path)
    with qtbot.waitSignal(tab.task_saved, timeout=TIMEOUT):
        tab.save()
    head = f'<outputs path="{path}" level="guild">\n'
    wrapped = OUTPUTS.rstrip("\n")
    expected = before_run.replace(wrapped, head + wrapped + "\n</outputs>", 1)
    assert bob.create_run("a_scout").task_text == expected  # byte for byte, but the wrapper
    editor.undo()  # one step puts the text back; the note stays
    assert editor.toPlainText() == original
    assert bob.note(path).version == 1


def test_file_open_note_opens_a_note_in_its_editor(qtbot, window: MainWindow) -> None:
    tab = window.task_tab
    qtbot.waitUntil(lambda: tab.editor.embeddable_model.rowCount() > 0, timeout=TIMEOUT)
    window.actions_.open_note.trigger()
    flow = tab.task_commands.open_note
    picker = flow.picker
    assert picker is not None and picker.windowTitle() == "Open note"
    qtbot.keyClicks(picker.search_field, "Style guide")
    qtbot.waitUntil(lambda: picker.current_path() == STYLE, timeout=TIMEOUT)
    picker.insert_button.click()
    qtbot.waitUntil(lambda: flow.note_editor is not None, timeout=TIMEOUT)
    editor = flow.note_editor
    qtbot.waitUntil(lambda: editor.session.doc is not None, timeout=TIMEOUT)
    assert editor.editor.text().startswith("Write short sentences.")
    assert editor.title_label.text() == "Style guide"


def test_a_slow_impact_shows_a_progress_sign_then_the_rows(
    qtbot, window: MainWindow, live_server: LiveServer
) -> None:
    from widgets.notes.impact_panel import WORKING

    editor = _editor(qtbot, _preview(qtbot, window, STYLE))
    live_server.hook("delay", seconds=1.0, path=f"/api/notes/{STYLE}/impact")
    editor.editor.set_text(editor.editor.text() + "One more rule.\n")
    with qtbot.waitSignal(editor.blast.impact_slow, timeout=TIMEOUT):
        editor.check_button.click()
    assert editor.impact.progress_label.isVisibleTo(editor)
    assert editor.impact.progress_label.text() == WORKING
    assert editor.impact.model.rowCount() == 0  # the answer is not in yet
    qtbot.waitUntil(lambda: editor.impact.model.rowCount() == 2, timeout=TIMEOUT)
    assert not editor.impact.progress_label.isVisibleTo(editor)
    assert editor.impact.summary_label.text() == (
        "Changes the prompt of 2 agents; 0 would go over 64 KB; 0 gain an unreachable embed"
    )


def test_an_earlier_text_of_the_note_goes_back_in_the_editor(
    qtbot, window: MainWindow, bob: TaskdeskClient
) -> None:
    from widgets.notes.note_editor import RESTORED

    first = bob.note(STYLE).text
    bob.put_note(STYLE, "Replaced by Bob.\n", 1)
    editor = _editor(qtbot, _preview(qtbot, window, STYLE))
    versions = editor.versions
    assert versions.model.rowCount() == 1
    assert versions.model.index(0, 0).data().startswith("v1 · replaced ")
    assert versions.model.index(0, 0).data().endswith(" by Bob")
    versions.list_view.setCurrentIndex(versions.model.index(0, 0))
    versions.use_button.click()
    assert editor.editor.text() == first and editor.status_label.text() == RESTORED
    editor.editor.undo()
    assert editor.editor.text() == "Replaced by Bob.\n"


def test_a_notes_unsaved_edits_are_kept_and_recovered_merged_with_a_save_since(
    qtbot, window: MainWindow, bob: TaskdeskClient
) -> None:
    from app.desk.note_drafts import draft_key
    from widgets.notes.note_editor import DRAFT_KEPT

    connection = window.task_tab.connection
    assert connection is not None
    store, server = connection.store, connection.server_key
    actions = _preview(qtbot, window, STYLE)
    editor = _editor(qtbot, actions)
    base = editor.editor.text()
    editor.editor.appendPlainText("Ann's draft line.")
    mine = editor.editor.text()
    qtbot.waitUntil(
        lambda: (d := store.get_draft(server, draft_key(STYLE))) is not None and d.text == mine,
        timeout=TIMEOUT,
    )
    editor.reject()  # closed unsaved, as a crash would leave it
    bob.put_note(STYLE, "Bob's first line.\n" + base, 1)
    again = _editor(qtbot, actions)
    qtbot.waitUntil(lambda: again.recover_button.isVisibleTo(again), timeout=TIMEOUT)
    assert again.status_label.text() == DRAFT_KEPT.format(version=1)
    again.recover_button.click()
    qtbot.waitUntil(lambda: "Ann's draft line." in again.editor.text(), timeout=TIMEOUT)
    assert again.editor.text() == "Bob's first line.\n" + mine
    again.save_button.click()
    qtbot.waitUntil(lambda: bob.note(STYLE).version == 3, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: store.get_draft(server, draft_key(STYLE)) is None, timeout=TIMEOUT)
