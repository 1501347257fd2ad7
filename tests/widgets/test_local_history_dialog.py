"""LocalHistoryDialog over a real LocalStore: the list, the text, Copy, Insert, empty and failed."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QGuiApplication, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit
from pytestqt.qtbot import QtBot

from app.desk.runner import Runner
from app.store import HistoryReason, LocalStore
from widgets.versions.history_entry_model import DETAIL_ROLE, TITLE_ROLE, size_text
from widgets.versions.local_history_dialog import (
    EMPTY_TEXT,
    LOADING_TEXT,
    HistoryLoader,
    LocalHistoryDialog,
    insert_at_cursor,
)

SERVER = "http://127.0.0.1:8123"
NOW = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)
OLDEST = "You watch the queue.\n"
MIDDLE = "## Work\n- Triage every ticket — oldest first.\n- Ünïcode stays intact: 😀\n"
NEWEST = "Reply within a day.\n"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[LocalStore]:
    """A real store file with three replaced texts for Scout (and one for another agent)."""
    times = iter([NOW.timestamp() - 2 * 86400, NOW.timestamp() - 3600, NOW.timestamp() - 180])
    with LocalStore(tmp_path / "store.sqlite3", clock=lambda: next(times, NOW.timestamp())) as s:
        s.add_history(SERVER, "a_scout", OLDEST, HistoryReason.RESTORED, 1, agent_name="Scout")
        s.add_history(SERVER, "a_scout", MIDDLE, HistoryReason.USED_THEIRS, 3, agent_name="Scout")
        s.add_history(SERVER, "a_scout", NEWEST, HistoryReason.DISCARDED, 4, agent_name="Scout")
        s.add_history(SERVER, "a_other", "not Scout's", HistoryReason.DISCARDED, 1)
        yield s


@pytest.fixture
def runner(qtbot: QtBot) -> Iterator[Runner]:
    worker = Runner()
    yield worker
    worker.shutdown()


def _dialog(qtbot: QtBot, runner: Runner, loader: HistoryLoader) -> LocalHistoryDialog:
    dialog = LocalHistoryDialog("Scout", loader, runner, clock=lambda: NOW)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


@pytest.fixture
def loaded(qtbot: QtBot, runner: Runner, store: LocalStore) -> LocalHistoryDialog:
    dialog = _dialog(qtbot, runner, lambda: store.history(SERVER, "a_scout"))
    with qtbot.waitSignal(dialog.loaded):
        dialog.load()
    return dialog


def test_loading_runs_off_the_gui_thread_and_says_so(
    qtbot: QtBot, runner: Runner, store: LocalStore
) -> None:
    dialog = _dialog(qtbot, runner, lambda: store.history(SERVER, "a_scout"))
    with qtbot.waitSignal(dialog.loaded):
        dialog.load()
        # The read is queued on the runner: until its result comes back, the dialog waits.
        assert dialog.state == "loading"
        assert dialog.status_label.text() == LOADING_TEXT
        assert dialog.pages.currentWidget() is dialog.status_label
        assert not dialog.copy_button.isEnabled()
        assert not dialog.insert_button.isEnabled()
    assert dialog.state == "ready"
    assert dialog.model.rowCount() == 3


def test_lists_newest_first_with_when_reason_version_and_size(
    loaded: LocalHistoryDialog,
) -> None:
    model = loaded.model
    rows = [
        (model.index(r, 0).data(TITLE_ROLE), model.index(r, 0).data(DETAIL_ROLE)) for r in range(3)
    ]
    assert rows == [
        ("Discarded", "3 min ago · from v4 · 20 bytes"),
        ("Replaced by their version", "1 h ago · from v3 · 79 bytes"),
        ("Replaced by a restored version", "2 days ago · from v1 · 21 bytes"),
    ]
    assert model.index(0, 0).data() == "Discarded — 3 min ago · from v4 · 20 bytes"
    assert model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole).startswith("Discarded on ")


def test_selected_text_is_shown_read_only_monospace_and_selectable(
    loaded: LocalHistoryDialog,
) -> None:
    selected = loaded.selected()
    assert selected is not None and selected.text == NEWEST
    assert loaded.text_view.toPlainText() == NEWEST
    loaded.select_row(1)
    assert loaded.text_view.toPlainText() == MIDDLE
    view = loaded.text_view
    assert view.isReadOnly()
    assert view.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
    assert view.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByKeyboard
    fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    assert view.font().family() == fixed.family()


def test_copy_puts_the_exact_text_on_the_clipboard(loaded: LocalHistoryDialog) -> None:
    clipboard = QGuiApplication.clipboard()
    clipboard.setText("something else")
    loaded.select_row(1)
    loaded.copy_button.click()
    assert clipboard.text() == MIDDLE
    assert (
        loaded.feedback_label.text() == "Copied 79 bytes to the clipboard."
    )  # bytes, not characters
    assert loaded.isVisible()  # copying leaves the dialog open to copy more


def test_insert_emits_the_selected_text_and_closes(
    qtbot: QtBot, loaded: LocalHistoryDialog
) -> None:
    loaded.select_row(2)
    with qtbot.waitSignal(loaded.insert_requested) as blocker:
        loaded.insert_button.click()
    assert blocker.args == [OLDEST]
    assert not loaded.isVisible()


def test_empty_history_says_what_will_be_kept(
    qtbot: QtBot, runner: Runner, store: LocalStore
) -> None:
    dialog = _dialog(qtbot, runner, lambda: store.history(SERVER, "a_writer"))
    with qtbot.waitSignal(dialog.loaded):
        dialog.load()
    assert dialog.state == "empty"
    assert dialog.status_label.text() == EMPTY_TEXT
    assert dialog.pages.currentWidget() is dialog.status_label
    assert not dialog.copy_button.isEnabled()
    assert not dialog.insert_button.isEnabled()
    dialog.close_button.click()
    assert not dialog.isVisible()


def test_a_store_that_cannot_be_read_is_explained(
    qtbot: QtBot, runner: Runner, store: LocalStore
) -> None:
    store.close()
    dialog = _dialog(qtbot, runner, lambda: store.history(SERVER, "a_scout"))
    with qtbot.waitSignal(dialog.load_failed) as blocker:
        dialog.load()
    assert dialog.state == "failed"
    message = blocker.args[0]
    assert message.startswith("The local history could not be read.")
    assert "read the local history" in message  # the store's own words, not a traceback
    assert dialog.status_label.text() == message
    assert not dialog.insert_button.isEnabled()


def test_closing_before_the_entries_arrive_is_safe(
    qtbot: QtBot, runner: Runner, store: LocalStore
) -> None:
    dialog = _dialog(qtbot, runner, lambda: store.history(SERVER, "a_scout"))
    dialog.load()
    dialog.close_button.click()
    assert runner.wait_idle()
    assert dialog.model.rowCount() == 0  # the late result was dropped, not shown


def test_insert_at_cursor_is_one_undo_step_and_keeps_a_selection(qtbot: QtBot) -> None:
    editor = QPlainTextEdit()
    qtbot.addWidget(editor)
    editor.setPlainText("keep this. and this.")
    cursor = editor.textCursor()
    cursor.setPosition(0)
    cursor.setPosition(10, QTextCursor.MoveMode.KeepAnchor)  # "keep this." selected
    editor.setTextCursor(cursor)
    insert_at_cursor(editor, "\nold line one\nold line two\n")
    assert editor.toPlainText() == "keep this.\nold line one\nold line two\n and this."
    editor.undo()
    assert editor.toPlainText() == "keep this. and this."


@pytest.mark.parametrize(
    ("size", "text"),
    [(0, "0 bytes"), (1, "1 byte"), (1023, "1023 bytes"), (1024, "1 KB"), (1900, "1.9 KB")],
)
def test_sizes_are_worded_for_people(size: int, text: str) -> None:
    assert size_text(size) == text


def test_a_row_cut_short_reads_whole_in_its_tooltip(
    qtbot: QtBot, loaded: LocalHistoryDialog
) -> None:
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QApplication, QStyleOptionViewItem, QToolTip

    view = loaded.list_view
    view.setMinimumWidth(140)  # narrower than a row needs: both lines are cut
    loaded.pages.currentWidget().setSizes([140, 10_000])
    qtbot.waitUntil(lambda: view.width() <= 150)
    index = loaded.model.index(2, 0)  # "Replaced by a restored version"
    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.rect = view.visualRect(index)
    title, detail = loaded.delegate.elided_lines(option, index)
    assert title.endswith("…") and detail.endswith("…")
    QToolTip.hideText()
    at = view.visualRect(index).center()
    QApplication.sendEvent(
        view.viewport(), QHelpEvent(QEvent.Type.ToolTip, at, view.viewport().mapToGlobal(at))
    )
    assert QToolTip.isVisible()
    tip = QToolTip.text()
    assert index.data(TITLE_ROLE) in tip and index.data(DETAIL_ROLE) in tip
