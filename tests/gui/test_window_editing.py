"""Driving the real window against a real server: edit, save, conflicts, versions, inserts."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from app.client import TaskdeskClient
from tests.window_steps import open_agent, saved, type_at_end
from widgets.window.main_window import MainWindow

TIMEOUT = 10_000


def test_edit_and_save_reaches_the_server(qtbot, window: MainWindow, bob) -> None:
    open_agent(qtbot, window, "a_writer")
    before = bob.get_task("a_writer")
    type_at_end(qtbot, window, "Sign every draft.")
    assert window.task_tab.has_unsaved()
    window.actions_.save.trigger()
    qtbot.waitUntil(lambda: saved(window), timeout=TIMEOUT)
    after = bob.get_task("a_writer")
    assert after.version == before.version + 1
    assert after.content == before.content + "Sign every draft."
    assert after.updated_by_name == "Ann"
    assert "Ann" in window.task_tab.provenance.text()
    assert f"v{after.version}" in window.task_tab.provenance.text()


def _conflict(qtbot, window: MainWindow, bob: TaskdeskClient) -> tuple[str, str]:
    """Ann edits Writer; Bob saves meanwhile; Ann's save meets the conflict."""
    open_agent(qtbot, window, "a_writer")
    base = bob.get_task("a_writer")
    theirs = base.content + "Bob's rule.\n"
    bob.put_task("a_writer", theirs, base.version)
    type_at_end(qtbot, window, "Ann's rule.")
    mine = window.task_tab.editor.text()
    window.actions_.save.trigger()
    qtbot.waitUntil(lambda: window.task_tab.conflict_banner.isVisible(), timeout=TIMEOUT)
    assert "Bob" in window.task_tab.conflict_banner.text()
    return theirs, mine


def test_conflict_compare_shows_their_text_beside_mine(qtbot, window: MainWindow, bob) -> None:
    theirs, mine = _conflict(qtbot, window, bob)
    window.task_tab.conflict_banner.compare_button.click()
    dialog = window.task_tab.conflict_flow.compare_dialog
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: "Bob's rule." in dialog.diff_view.old_text, timeout=TIMEOUT)
    assert "Ann's rule." in dialog.diff_view.new_text
    assert "Ann's rule." not in dialog.diff_view.old_text
    assert dialog.diff_view.model is not None and dialog.diff_view.model.change_count >= 1
    old_lines = [line for line in dialog.diff_view.old_text.splitlines() if line]
    new_lines = [line for line in dialog.diff_view.new_text.splitlines() if line]
    assert old_lines == [line for line in theirs.splitlines() if line]  # theirs on the left
    assert new_lines == [line for line in mine.splitlines() if line]  # mine on the right


def test_conflict_keep_mine_saves_my_text_over_theirs(qtbot, window: MainWindow, bob) -> None:
    theirs, mine = _conflict(qtbot, window, bob)
    window.task_tab.conflict_banner.keep_mine_button.click()
    flow = window.task_tab.conflict_flow
    qtbot.waitUntil(lambda: flow.keep_mine_dialog is not None, timeout=TIMEOUT)
    assert "Bob's rule." in flow.keep_mine_dialog.diff_view.old_text  # what it throws away
    flow.keep_mine_dialog.confirm_button.click()
    qtbot.waitUntil(lambda: saved(window), timeout=TIMEOUT)
    live = bob.get_task("a_writer")
    assert live.content == mine
    assert live.revisions[0].content == theirs  # theirs is kept as a version
    assert not window.task_tab.conflict_banner.isVisible()


def test_conflict_use_theirs_asks_then_loads_their_text(qtbot, window: MainWindow, bob) -> None:
    theirs, mine = _conflict(qtbot, window, bob)
    window.task_tab.conflict_banner.use_theirs_button.click()
    dialog = window.task_tab.conflict_flow.confirm_dialog
    assert dialog is not None, "Use theirs drops my edits: it must ask first"
    dialog.cancel_button.click()
    assert window.task_tab.editor.text() == mine  # Cancel keeps everything
    assert window.task_tab.conflict_banner.isVisible()
    window.task_tab.conflict_banner.use_theirs_button.click()
    window.task_tab.conflict_flow.confirm_dialog.confirm_button.click()
    qtbot.waitUntil(lambda: window.task_tab.editor.text() == theirs, timeout=TIMEOUT)
    assert not window.task_tab.conflict_banner.isVisible()
    assert not window.task_tab.has_unsaved()
    assert bob.get_task("a_writer").content == theirs  # nothing of mine was saved


def test_restore_a_version_after_seeing_the_change(qtbot, window: MainWindow, bob) -> None:
    # Scout (seeded with saves) opens first: v3 live, v2 and v1 earlier.
    live = bob.get_task("a_scout")
    older = live.revisions[-1]
    window.actions_.versions.trigger()
    panel = window.task_tab.versions
    assert panel.isVisible()
    panel.select_version(older.version)
    panel.restore_button.click()
    qtbot.waitUntil(
        lambda: window.task_tab.version_flow.restore_dialog is not None, timeout=TIMEOUT
    )
    dialog = window.task_tab.version_flow.restore_dialog
    assert "removed" in dialog.summary_label.text() or "added" in dialog.summary_label.text()
    # The one compare view: the live text beside what Restore brings back.
    assert (dialog.diff_view.old_text, dialog.diff_view.new_text) == (live.content, older.content)
    assert dialog.diff_view.model.change_count >= 1
    dialog.restore_button.click()
    qtbot.waitUntil(lambda: bob.get_task("a_scout").version == live.version + 1, timeout=TIMEOUT)
    assert bob.get_task("a_scout").content == older.content
    qtbot.waitUntil(lambda: window.task_tab.editor.text() == older.content, timeout=TIMEOUT)
    assert not window.task_tab.has_unsaved()


@pytest.mark.parametrize(
    ("action", "path"),
    [
        ("insert_note", "org/o_acme/handbook.md"),
        ("insert_table", "org/o_acme/guilds/guild_ops/customers"),
    ],
)
def test_insert_note_and_table_at_the_cursor(qtbot, window: MainWindow, action, path) -> None:
    open_agent(qtbot, window, "a_writer")
    tab = window.task_tab
    qtbot.waitUntil(lambda: tab.editor.embeddable_model.rowCount() > 0, timeout=TIMEOUT)
    tab.set_mode_edit(True)
    tab.editor.moveCursor(QTextCursor.MoveOperation.Start)
    getattr(window.actions_, action).trigger()
    picker = tab.insert_dialogs.picker
    assert picker is not None and picker.isVisible()
    assert tab.modes.currentWidget() is not tab.preview  # inserting happens in Edit
    qtbot.keyClicks(picker.search_field, path)
    assert picker.current_path() == path
    qtbot.keyClick(picker.search_field, Qt.Key.Key_Return)
    assert tab.editor.text().startswith(f"![[{path}]]")
    assert tab.has_unsaved()


def test_unreachable_banner_names_the_right_embeds(qtbot, window: MainWindow, bob) -> None:
    expected = next(s for s in bob.embed_status("guild_ops") if s.id == "a_scout").broken_embeds
    assert expected, "the basic workspace gives Scout unreachable embeds"
    tab = window.task_tab
    qtbot.waitUntil(lambda: tab.unreachable_banner.isVisible(), timeout=TIMEOUT)
    lines = tab.unreachable_banner.lines()
    assert len(lines) == len(expected)
    for line, broken in zip(lines, expected, strict=True):
        assert line.startswith(broken.path)
        assert f"hop {broken.hop}" in line
    assert tab.header.is_marked_unreachable()
    assert window.agent_model.broken_embeds("a_scout") == expected
    # Writer reaches everything: no banner, no mark.
    open_agent(qtbot, window, "a_writer")
    assert not tab.unreachable_banner.isVisible()
    assert not tab.header.is_marked_unreachable()


def test_the_versions_list_says_restored_from_after_a_restore(
    qtbot, window: MainWindow, bob
) -> None:
    from widgets.versions.revision_model import DETAIL_ROLE

    live = bob.get_task("a_scout")
    oldest = min(r.version for r in live.revisions)
    window.actions_.versions.trigger()
    panel = window.task_tab.versions
    panel.select_version(oldest)
    panel.restore_button.click()
    flow = window.task_tab.version_flow
    qtbot.waitUntil(lambda: flow.restore_dialog is not None, timeout=TIMEOUT)
    flow.restore_dialog.restore_button.click()
    qtbot.waitUntil(
        lambda: panel.model.live() is not None and panel.model.live().version == live.version + 1,
        timeout=TIMEOUT,
    )
    detail = panel.model.index(0, 0).data(DETAIL_ROLE)
    assert detail.endswith(f"restored from v{oldest}")
