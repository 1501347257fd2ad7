"""The Edit menu does what every editor's does, with the platform's keys and honest states."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtWidgets import QMenu

from tests.window_steps import type_at_end
from widgets.window.main_window import MainWindow

StandardKey = QKeySequence.StandardKey


def _edit_menu(window: MainWindow) -> QMenu:
    for action in window.menuBar().actions():
        if action.text() == "&Edit":
            menu = action.menu()
            assert isinstance(menu, QMenu)
            return menu
    raise AssertionError("no Edit menu")


def test_edit_menu_lists_the_usual_commands_with_standard_keys(window: MainWindow) -> None:
    labels = [a.text().replace("&", "") for a in _edit_menu(window).actions() if a.text()]
    assert labels == [
        "Undo",
        "Redo",
        "Cut",
        "Copy",
        "Paste",
        "Paste as plain text",
        "Select All",
        "Find…",
        "Find Next",
        "Find Previous",
        "Replace…",
        "Go to Line…",
        "Move to a note…",
    ]
    editing = window.actions_.editing
    for action, key in (
        (editing.undo, StandardKey.Undo),
        (editing.redo, StandardKey.Redo),
        (editing.cut, StandardKey.Cut),
        (editing.copy, StandardKey.Copy),
        (editing.paste, StandardKey.Paste),
        (editing.select_all, StandardKey.SelectAll),
    ):
        assert action.shortcut() == QKeySequence.keyBindings(key)[0]
    assert QKeySequence("F3") in editing.find_next.shortcuts()
    assert QKeySequence("Shift+F3") in editing.find_previous.shortcuts()
    assert window.actions_.find.shortcut() == QKeySequence.keyBindings(StandardKey.Find)[0]


def test_undo_redo_cut_copy_follow_the_editor(qtbot, window: MainWindow) -> None:
    editing = window.actions_.editing
    editor = window.task_tab.editor
    assert not editing.undo.isEnabled() and not editing.redo.isEnabled()
    assert not editing.copy.isEnabled() and not editing.cut.isEnabled()
    before = editor.text()
    type_at_end(qtbot, window, "Keep it short.")
    assert editing.undo.isEnabled() and not editing.redo.isEnabled()
    while editing.undo.isEnabled():
        editing.undo.trigger()
    assert editor.text() == before
    assert editing.redo.isEnabled()
    editing.redo.trigger()
    assert editor.text() != before
    editing.select_all.trigger()
    assert editing.copy.isEnabled() and editing.cut.isEnabled()
    editing.copy.trigger()
    assert QGuiApplication.clipboard().text() == editor.text()


def test_undo_from_preview_shows_the_editor(qtbot, window: MainWindow) -> None:
    editing = window.actions_.editing
    tab = window.task_tab
    before = tab.editor.text()
    type_at_end(qtbot, window, "One more rule.")
    window.actions_.preview.trigger()
    assert tab.modes.currentWidget() is tab.preview
    while editing.undo.isEnabled():
        editing.undo.trigger()
    assert tab.editor.text() == before
    assert window.actions_.edit.isChecked()
    assert tab.modes.currentWidget() is tab.work_area.edit_page


def test_paste_follows_the_clipboard_and_pastes_plain_text(qtbot, window: MainWindow) -> None:
    editing = window.actions_.editing
    editor = window.task_tab.editor
    QGuiApplication.clipboard().clear()
    qtbot.waitUntil(lambda: not editing.paste.isEnabled())
    assert not editing.paste_plain.isEnabled()
    QGuiApplication.clipboard().setText("Pasted rule.")
    qtbot.waitUntil(lambda: editing.paste.isEnabled())
    window.actions_.edit.trigger()
    editor.go_to_line(editor.blockCount())
    editing.paste_plain.trigger()
    assert "Pasted rule." in editor.text()


def test_f3_finds_the_next_and_shift_f3_the_previous_match(qtbot, window: MainWindow) -> None:
    tab = window.task_tab
    window.actions_.edit.trigger()
    editor = tab.editor
    editor.selectAll()
    qtbot.keyClicks(editor, "alpha beta alpha beta alpha")
    editor.go_to_line(1)
    qtbot.keyClick(editor, Qt.Key.Key_F3)  # nothing to find yet: the find bar opens
    find_bar = tab.work_area.find_bar
    assert find_bar.isVisible() and find_bar.find_field.hasFocus()
    qtbot.keyClicks(find_bar.find_field, "alpha")
    qtbot.keyClick(find_bar.find_field, Qt.Key.Key_Escape)
    assert editor.hasFocus()
    positions = []
    for _ in range(3):
        qtbot.keyClick(editor, Qt.Key.Key_F3)
        positions.append(editor.textCursor().selectionStart())
    assert positions == [0, 11, 22]
    qtbot.keyClick(editor, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    assert editor.textCursor().selectionStart() == 11


def test_go_to_line_moves_the_cursor(qtbot, window: MainWindow) -> None:
    editor = window.task_tab.editor
    assert editor.blockCount() > 3
    window.actions_.editing.go_to_line.trigger()
    dialog = window.actions_.editing.go_to_line_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.line_box.maximum() == editor.blockCount()
    dialog.line_box.setValue(3)
    dialog.go_button.click()
    assert editor.textCursor().blockNumber() == 2
    assert window.task_tab.modes.currentWidget() is window.task_tab.work_area.edit_page


def test_replace_opens_find_and_replace(qtbot, window: MainWindow) -> None:
    window.actions_.editing.replace.trigger()
    find_bar = window.task_tab.work_area.find_bar
    assert find_bar.isVisible() and find_bar.replace_field.isVisible()
