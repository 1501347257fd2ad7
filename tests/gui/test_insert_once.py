"""One activation of the Insert picker inserts exactly once, whatever the input."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from widgets.editor.insert_picker import InsertPickerDialog
from widgets.window.main_window import MainWindow

TIMEOUT = 10_000
CUSTOMERS = "org/o_acme/guilds/guild_ops/customers"


def _double_click(qtbot, picker: InsertPickerDialog) -> None:
    view = picker.list_view
    rect = view.visualRect(view.currentIndex())
    # A real double-click starts with a press and release, then the double-click event.
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def _enter_in_list(qtbot, picker: InsertPickerDialog) -> None:
    qtbot.keyClick(picker.list_view, Qt.Key.Key_Return)


def _enter_in_search(qtbot, picker: InsertPickerDialog) -> None:
    qtbot.keyClick(picker.search_field, Qt.Key.Key_Return)


def _insert_button(qtbot, picker: InsertPickerDialog) -> None:
    picker.insert_button.click()


def _keyboard_then_mouse(qtbot, picker: InsertPickerDialog) -> None:
    qtbot.keyClick(picker.search_field, Qt.Key.Key_Return)
    # The dialog is closing; a late click on the button must not insert again.
    picker.insert_button.click()
    picker.on_insert()


@pytest.mark.parametrize(
    "activate",
    [_double_click, _enter_in_list, _enter_in_search, _insert_button, _keyboard_then_mouse],
)
def test_one_activation_inserts_once(
    qtbot, window: MainWindow, activate: Callable[..., None]
) -> None:
    tab = window.task_tab
    qtbot.waitUntil(lambda: tab.editor.embeddable_model.rowCount() > 0, timeout=TIMEOUT)
    tab.set_mode_edit(True)
    tab.editor.moveCursor(QTextCursor.MoveOperation.Start)
    before = tab.editor.text()
    window.actions_.insert_table.trigger()
    picker = tab.insert_dialogs.picker
    assert picker is not None
    qtbot.keyClicks(picker.search_field, "Customers")
    assert picker.current_path() == CUSTOMERS
    with qtbot.waitSignal(picker.finished, timeout=TIMEOUT):
        activate(qtbot, picker)
    qtbot.waitUntil(lambda: tab.insert_dialogs.picker is None, timeout=TIMEOUT)
    assert tab.editor.text() == f"![[{CUSTOMERS}]]" + before
    assert tab.editor.text().count(f"![[{CUSTOMERS}]]") == before.count(CUSTOMERS) + 1
