"""InsertPickerDialog: filters by title, path and level, per kind, and returns the chosen path."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.models import EmbeddableNote
from tests.on_screen import shown
from widgets.editor.embeddable_model import PATH_ROLE, EmbeddableModel
from widgets.editor.insert_picker import InsertPickerDialog

NOTES = [
    EmbeddableNote("org/o_acme/guilds/guild_ops/style-guide.md", "Style guide", "note", "guild"),
    EmbeddableNote("org/o_acme/policies/escalation.md", "Escalation rules", "note", "org"),
    EmbeddableNote("org/o_acme/agents/a_scout/checklist.md", "Scout checklist", "note", "agent"),
    EmbeddableNote("org/o_acme/guilds/guild_ops/customers", "Customers", "collection", "guild"),
    EmbeddableNote("org/o_acme/suppliers", "Suppliers", "collection", "org"),
]


@pytest.fixture
def picker(qtbot: QtBot) -> InsertPickerDialog:
    return shown(qtbot, InsertPickerDialog(NOTES, kind="note"))


def _paths(dialog: InsertPickerDialog) -> list[str]:
    model = dialog.list_view.model()
    return [model.index(r, 0).data(PATH_ROLE) for r in range(model.rowCount())]


def test_note_picker_offers_notes_only(picker: InsertPickerDialog) -> None:
    assert len(_paths(picker)) == 3
    assert all(not p.endswith(("customers", "suppliers")) for p in _paths(picker))
    assert picker.windowTitle() == "Insert note"


def test_table_picker_offers_collections_only(qtbot: QtBot) -> None:
    dialog = InsertPickerDialog(NOTES, kind="collection")
    qtbot.addWidget(dialog)
    assert _paths(dialog) == ["org/o_acme/guilds/guild_ops/customers", "org/o_acme/suppliers"]
    assert dialog.windowTitle() == "Insert table"


def test_search_by_title_is_case_insensitive(picker: InsertPickerDialog, qtbot: QtBot) -> None:
    qtbot.keyClicks(picker.search_field, "STYLE")
    assert _paths(picker) == ["org/o_acme/guilds/guild_ops/style-guide.md"]


def test_search_by_path(picker: InsertPickerDialog, qtbot: QtBot) -> None:
    qtbot.keyClicks(picker.search_field, "policies/")
    assert _paths(picker) == ["org/o_acme/policies/escalation.md"]


def test_search_by_level(picker: InsertPickerDialog, qtbot: QtBot) -> None:
    qtbot.keyClicks(picker.search_field, "agent")
    assert _paths(picker) == ["org/o_acme/agents/a_scout/checklist.md"]


def test_no_match_says_so_and_disables_insert(picker: InsertPickerDialog, qtbot: QtBot) -> None:
    qtbot.keyClicks(picker.search_field, "zzz")
    assert _paths(picker) == []
    assert not picker.empty_label.isHidden()
    assert not picker.insert_button.isEnabled()


def test_enter_in_search_chooses_the_first_match(picker: InsertPickerDialog, qtbot: QtBot) -> None:
    qtbot.keyClicks(picker.search_field, "escal")
    with qtbot.waitSignal(picker.accepted):
        qtbot.keyClick(picker.search_field, Qt.Key.Key_Return)
    assert picker.chosen_path() == "org/o_acme/policies/escalation.md"


def test_down_then_insert_button(picker: InsertPickerDialog, qtbot: QtBot) -> None:
    qtbot.keyClick(picker.search_field, Qt.Key.Key_Down)
    with qtbot.waitSignal(picker.accepted):
        picker.insert_button.click()
    assert picker.chosen_path() == _paths(picker)[1]


def test_double_click_chooses(picker: InsertPickerDialog, qtbot: QtBot) -> None:
    view = picker.list_view
    rect = view.visualRect(view.model().index(2, 0))
    # A real double-click starts with a press; QTest's double-click event alone has none.
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    with qtbot.waitSignal(picker.accepted):
        qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert picker.chosen_path() == "org/o_acme/agents/a_scout/checklist.md"


def test_cancel_chooses_nothing(picker: InsertPickerDialog, qtbot: QtBot) -> None:
    with qtbot.waitSignal(picker.rejected):
        picker.cancel_button.click()
    assert picker.chosen_path() is None


def test_picker_shares_a_model_and_paints(qtbot: QtBot) -> None:
    model = EmbeddableModel(NOTES)
    dialog = InsertPickerDialog(model, kind="note")
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.grab().isNull()  # the delegate paints title, level tag and path
    model.set_notes(NOTES[:1])
    assert len(_paths(dialog)) == 1


def test_accessible_names_match_labels(picker: InsertPickerDialog) -> None:
    assert picker.insert_button.accessibleName() == picker.insert_button.text().replace("&", "")
    assert picker.cancel_button.accessibleName() == picker.cancel_button.text()
    assert picker.search_field.accessibleName() == "Search"


def test_thousands_of_notes_best_first_a_page_at_a_time(qtbot: QtBot) -> None:
    many = [
        EmbeddableNote(f"org/o_acme/pages/page-{n:05d}.md", f"Page {n}", "note", "org")
        for n in range(3_000)
    ]
    exact = EmbeddableNote("org/o_acme/style/page-7.md", "Page 7", "note", "org")
    dialog = shown(qtbot, InsertPickerDialog([*many, exact], kind="note"))
    view, found = dialog.list_view, dialog.proxy
    assert found.match_count() == 3_001
    assert 0 < found.rowCount() < 3_001  # a page; the rest when scrolled to
    view.scrollToBottom()
    qtbot.waitUntil(lambda: found.rowCount() > 100)
    qtbot.keyClicks(dialog.search_field, "page 7")
    assert _paths(dialog)[:2] == ["org/o_acme/pages/page-00007.md", "org/o_acme/style/page-7.md"]
    assert found.match_count() == sum(
        "page" in f"{n.title} {n.display_path}".casefold() and "7" in f"{n.title} {n.display_path}"
        for n in [*many, exact]
    )
    with qtbot.waitSignal(dialog.accepted):
        qtbot.keyClick(dialog.search_field, Qt.Key.Key_Return)
    assert dialog.chosen_path() == "org/o_acme/pages/page-00007.md"
