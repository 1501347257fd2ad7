"""A screen reader reads every changed line of a compare, and F7 / Shift+F7 say each change."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from pytestqt.qtbot import QtBot

from widgets.versions.diff_view import DiffView

OLD = "keep\nold one\nold two\ngone\nkeep too\n"
NEW = "keep\nnew one\nnew two\nkeep too\nadded\n"


def _view(qtbot: QtBot) -> DiffView:
    view = DiffView()
    qtbot.addWidget(view)
    view.resize(900, 500)
    view.set_texts(OLD, NEW, "v3", "v4 (live)")
    view.show()
    qtbot.waitExposed(view)
    return view


def _cells(interface: QAccessible) -> list[str]:
    texts = []
    for i in range(interface.childCount()):
        child = interface.child(i)
        if child is not None and child.role() == QAccessible.Role.Cell:
            texts.append(child.text(QAccessible.Text.Name))
    return texts


def test_f7_opens_the_table_of_changed_lines_and_reads_the_first_change(qtbot: QtBot) -> None:
    view = _view(qtbot)
    view.canvas.setFocus()
    assert not view.reader.isVisible()
    with qtbot.waitSignal(view.change_announced) as said:
        qtbot.keyClick(view.canvas, Qt.Key.Key_F7)
    assert said.args[0].startswith("Change 1 of 2, lines 2 to 3 on the right")
    assert view.reader.isVisible() and view.focusWidget() is view.reader
    assert view.current_change_index == 0

    table = QAccessible.queryAccessibleInterface(view.reader)
    assert table.role() == QAccessible.Role.Table
    assert table.text(QAccessible.Text.Name) == "Changes, line by line"
    cells = _cells(table)
    for text in ("old one", "new one", "gone", "added", "removed", "changed", "4"):
        assert text in cells, text


def test_f7_and_shift_f7_move_between_changes_and_say_the_ends(qtbot: QtBot) -> None:
    view = _view(qtbot)
    view.canvas.setFocus()
    said: list[str] = []
    view.change_announced.connect(said.append)
    for _ in range(3):
        qtbot.keyClick(view.focusWidget(), Qt.Key.Key_F7)
    assert view.current_change_index == 1
    assert said[-1] == "No more changes: this is the last of 2"
    qtbot.keyClick(view.focusWidget(), Qt.Key.Key_F7, Qt.KeyboardModifier.ShiftModifier)
    assert view.current_change_index == 0
    assert said[-1].startswith("Change 1 of 2")
    assert view.reader.current_change() == 0


def test_return_on_a_row_moves_the_compare_to_its_change(qtbot: QtBot) -> None:
    view = _view(qtbot)
    view.read_button.setChecked(True)
    last_row = view.reader.rows.rowCount() - 1
    view.reader.setCurrentIndex(view.reader.rows.index(last_row, 3))
    view.reader.setFocus()
    qtbot.keyClick(view.reader, Qt.Key.Key_Return)
    assert view.current_change_index == 1


def test_each_row_describes_itself_as_one_sentence(qtbot: QtBot) -> None:
    view = _view(qtbot)
    view.read_button.setChecked(True)
    model = view.reader.rows
    described = [
        model.data(model.index(n, 0), Qt.ItemDataRole.AccessibleDescriptionRole)
        for n in range(model.rowCount())
    ]
    assert "Line 4 on the left removed: gone" in described
