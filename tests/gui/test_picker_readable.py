"""The Insert picker marks which notes the agent being edited can read, and asks first."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QTextCursor

from app.client import TaskdeskClient
from app.core.models import Reader
from app.server import start_server
from tests.live_server import WORKSPACE_BASIC, LiveServer
from tests.window_steps import open_agent, sign_in
from widgets.editor.embeddable_model import PATH_ROLE, READABLE_ROLE
from widgets.editor.insert_picker import InsertPickerDialog
from widgets.window.main_window import MainWindow

TIMEOUT = 10_000
METHODS = "org/o_acme/guilds/guild_research/methods.md"  # Research only: Scout can't read it


def _rows(picker: InsertPickerDialog) -> list[tuple[str, bool | None]]:
    model = picker.list_view.model()
    return [
        (model.index(r, 0).data(PATH_ROLE), model.index(r, 0).data(READABLE_ROLE))
        for r in range(model.rowCount())
    ]


def _open_note_picker(qtbot, window: MainWindow) -> InsertPickerDialog:
    tab = window.task_tab
    qtbot.waitUntil(lambda: tab.editor.embeddable_model.rowCount() > 0, timeout=TIMEOUT)
    tab.set_mode_edit(True)
    tab.editor.moveCursor(QTextCursor.MoveOperation.Start)
    window.actions_.insert_note.trigger()
    picker = tab.insert_dialogs.picker
    assert picker is not None
    return picker


def test_notes_are_marked_by_the_agents_access_readable_first(
    qtbot, window: MainWindow, live_server: LiveServer
) -> None:
    picker = _open_note_picker(qtbot, window)  # Scout, in Operations
    rows = _rows(picker)
    scout = Reader("a_scout", "guild_ops")
    with TaskdeskClient(live_server.url, live_server.token("ann")) as ann:
        expected = {n.display_path: ann.note(n.display_path).access for n in ann.embeddable_notes()}
    from app.core.models import can_read

    for path, readable in rows:
        assert readable == can_read(expected[path], scout), path
    flags = [readable for _, readable in rows]
    assert flags == sorted(flags, reverse=True)  # every readable note before the others
    assert (METHODS, False) in rows
    assert "Scout" in picker.reader_label.text()


def test_inserting_a_note_the_agent_cant_read_asks_first(qtbot, window: MainWindow) -> None:
    tab = window.task_tab
    before = tab.editor.text()
    picker = _open_note_picker(qtbot, window)
    qtbot.keyClicks(picker.search_field, "methods")
    assert picker.current_path() == METHODS
    picker.insert_button.click()
    box = picker.unreadable_box
    assert box is not None and box.isVisible()
    assert "Scout can't read" in box.text() and "Methods" in box.text()
    box.cancel_button.click()
    assert tab.editor.text() == before and picker.isVisible()  # nothing inserted, still choosing

    with qtbot.waitSignal(picker.finished, timeout=TIMEOUT):
        picker.insert_button.click()
        picker.unreadable_box.insert_button.click()
    assert tab.editor.text() == f"![[{METHODS}]]" + before


def test_a_readable_note_goes_in_without_a_question(qtbot, window: MainWindow) -> None:
    picker = _open_note_picker(qtbot, window)
    qtbot.keyClicks(picker.search_field, "style guide")
    with qtbot.waitSignal(picker.finished, timeout=TIMEOUT):
        picker.insert_button.click()
    assert picker.unreadable_box is None


@pytest.fixture
def spec_only(tmp_path: Path) -> Iterator[LiveServer]:
    handle = start_server(WORKSPACE_BASIC, tmp_path / "spec.sqlite3", extensions=False)
    try:
        yield LiveServer(handle, WORKSPACE_BASIC, tmp_path / "spec.sqlite3", False, {})
    finally:
        handle.stop()


def test_a_spec_only_server_says_it_cant_be_checked(
    qtbot, make_window, spec_only: LiveServer
) -> None:
    window = make_window()
    sign_in(qtbot, window, spec_only.url, "ann-secret", first_agent=False)
    window.sidebar.open_by_id_button.click()
    dialog = window.sidebar.open_by_id_dialog
    qtbot.keyClicks(dialog.id_edit, "a_scout")
    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
        dialog.open_button.click()
    picker = _open_note_picker(qtbot, window)
    assert all(readable is None for _, readable in _rows(picker))
    assert "can't be checked" in picker.reader_label.text()
    qtbot.keyClicks(picker.search_field, "methods")
    with qtbot.waitSignal(picker.finished, timeout=TIMEOUT):
        picker.insert_button.click()  # nothing to warn about: nothing is known
    assert picker.unreadable_box is None


def test_writer_and_scout_differ(qtbot, window: MainWindow) -> None:
    open_agent(qtbot, window, "a_writer")
    picker = _open_note_picker(qtbot, window)
    assert "Writer" in picker.reader_label.text()


def test_row_text_starts_after_the_icon(qtbot, window: MainWindow) -> None:
    """The icon never overlaps the first letter of the title and path."""
    from PySide6.QtWidgets import QStyle, QStyleOptionViewItem

    picker = _open_note_picker(qtbot, window)
    view = picker.list_view
    qtbot.waitUntil(lambda: view.model().rowCount() > 0, timeout=TIMEOUT)
    delegate = view.itemDelegate()
    index = view.model().index(0, 0)
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)  # as the view paints the row
    option.rect = view.visualRect(index)
    delegate.initStyleOption(option, index)
    assert not option.icon.isNull()
    icon = view.style().subElementRect(QStyle.SubElement.SE_ItemViewItemDecoration, option, view)
    assert delegate.text_left(option) - icon.right() > 4  # a clear gap after the icon (it was 1 px)
    picker.reject()
