"""The ``![[`` completer ranks and marks notes as the Insert picker does: the notes the agent
being edited can read first, the others last and marked "agent can't read"."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from tests.window_steps import LOAD_TIMEOUT_MS
from widgets.editor.embeddable_model import PATH_ROLE, READABLE_ROLE
from widgets.window.main_window import MainWindow

METHODS = "org/o_acme/guilds/guild_research/methods.md"  # Research only: Scout can't read it


def _popup_rows(window: MainWindow) -> list[tuple[str, bool | None]]:
    model = window.task_tab.editor.completer.completionModel()
    return [
        (model.index(r, 0).data(PATH_ROLE), model.index(r, 0).data(READABLE_ROLE))
        for r in range(model.rowCount())
    ]


def _picker_rows(window: MainWindow) -> list[tuple[str, bool | None]]:
    window.actions_.insert_note.trigger()
    picker = window.task_tab.insert_dialogs.picker
    assert picker is not None
    model = picker.list_view.model()
    rows = [
        (model.index(r, 0).data(PATH_ROLE), model.index(r, 0).data(READABLE_ROLE))
        for r in range(model.rowCount())
    ]
    picker.reject()
    return rows


def test_the_completer_ranks_and_marks_as_the_picker(qtbot, window: MainWindow) -> None:
    tab = window.task_tab  # Scout, in Operations
    editor = tab.editor
    qtbot.waitUntil(lambda: editor.embeddable_model.rowCount() > 0, timeout=LOAD_TIMEOUT_MS)
    tab.set_mode_edit(True)
    editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.keyClicks(editor, "![[")
    popup = editor.completer.list_popup
    qtbot.waitUntil(popup.isVisible, timeout=LOAD_TIMEOUT_MS)
    shown = _popup_rows(window)
    popup.hide()
    flags = [readable for _, readable in shown]
    assert False in flags and flags == sorted(flags, reverse=True)  # readable first, marked
    assert (METHODS, False) in shown
    # The same order and marks as Insert › Note, for the notes (the popup offers tables too).
    picked = _picker_rows(window)
    assert [row for row in shown if row in picked] == [row for row in picked if row in shown]
