"""The merge's marks in the editor follow the operator's edits and paint only what is shown."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor

from app.core.merge import merge_texts
from app.core.merge_layout import lay_out
from widgets.editor.merge_marks import MergeMarks, moved, utf16_positions
from widgets.editor.task_editor import TaskEditor

BASE = "# Rules\n\nBe brief.\n\nSign replies.\n\nNo jargon.\n"
MINE = BASE.replace("Sign replies.", "Sign replies with your name.").replace("# R", "# House r")
THEIRS = BASE.replace("Sign replies.", "Sign replies with the team.")


def test_text_typed_at_a_marks_edge_stays_outside_and_inside_joins_it() -> None:
    # A mark over [10, 20): typing at 10 pushes it, typing at 20 leaves it, typing inside grows it.
    assert (moved(10, True, 10, 0, 3), moved(20, False, 10, 0, 3)) == (13, 23)
    assert (moved(10, True, 20, 0, 3), moved(20, False, 20, 0, 3)) == (10, 20)
    assert (moved(10, True, 15, 0, 3), moved(20, False, 15, 0, 3)) == (10, 23)
    # Deleting [12, 25) cuts its tail; replacing all of it keeps the replacement.
    assert (moved(10, True, 12, 13, 0), moved(20, False, 12, 13, 0)) == (10, 12)
    assert (moved(10, True, 10, 10, 4), moved(20, False, 10, 10, 4)) == (10, 14)
    assert moved(30, True, 12, 5, 5) == 30  # a format change moves nothing


def test_positions_count_utf16_units_as_the_editor_does() -> None:
    assert utf16_positions("a😀b", [0, 1, 2, 3]) == [0, 1, 3, 4]


def _merged_editor(qtbot) -> tuple[TaskEditor, MergeMarks, str]:
    editor = TaskEditor()
    qtbot.addWidget(editor)
    editor.resize(600, 400)
    editor.show()
    layout = lay_out(merge_texts(BASE, THEIRS, MINE))
    editor.set_text(layout.text)
    marks = MergeMarks(editor)
    marks.show(layout.text, layout.marks)
    return editor, marks, layout.text


def test_marks_follow_typing_and_a_hand_edit_resolves_the_conflict(qtbot) -> None:
    editor, marks, _ = _merged_editor(qtbot)
    assert marks.open_conflicts() == [0]
    before = marks.conflict_cursor(0)
    assert before is not None and before.selectedText().startswith("<<<<<<< mine")
    start, text = before.selectionStart(), before.selectedText()
    editor.moveCursor(QTextCursor.MoveOperation.Start)
    qtbot.keyClicks(editor, "Note. ")  # typed above the conflict: the marks move along
    block = marks.conflict_cursor(0)
    assert block is not None and block.selectionStart() == start + 6
    assert block.selectedText() == text
    # Hand edit: the block selected and typed over; no marker line is left.
    editor.setTextCursor(block)
    qtbot.keyClicks(editor, "Sign replies, always.")
    assert marks.open_conflicts() == []
    assert len(editor.extraSelections()) >= 2  # my heading, and the resolved conflict


def test_undo_of_the_whole_merge_sweeps_the_marks_away(qtbot) -> None:
    editor, marks, _ = _merged_editor(qtbot)
    gone: list[bool] = []
    marks._on_gone = lambda: gone.append(True)
    cursor = QTextCursor(editor.document())
    cursor.select(QTextCursor.SelectionType.Document)
    cursor.insertText(MINE)
    assert gone == [True] and not marks.active and editor.extraSelections() == []
