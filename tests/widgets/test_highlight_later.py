"""A whole-text replacement in the editor (a merge, a restore): one undoable edit, the blocks on
screen highlighted at once, the rest in slices, ending exactly as a whole highlight does."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QTextCursor, QTextDocument
from PySide6.QtWidgets import QApplication

from widgets.editor.highlight_later import HighlightLater, available
from widgets.editor.task_editor import TaskEditor


def _section(n: int) -> str:
    return (
        f"## Step {n}\n\n"
        f"- Check **queue {n}** and _flag_ what needs a person; see [the runbook](x/{n}).\n"
        f"- Embed: ![[org/o_acme/notes/step-{n}.md]] and `code {n}`.\n\n"
        "```\n"
        f"# not a heading inside a fence {n}\n"
        "- not a list either\n"
        "```\n\n"
        f"> A quote {n}.\n\n"
    )


# A fence opened near the top is closed only near the end: blocks below it, on screen when
# the slices start, change state as the slices reach them.
TEXT = "# Task\n\n```\nopened far above\n" + "".join(_section(n) for n in range(400)) + "```\n"
OTHER = "# Another Task\n\nShort.\n"


def formats_of(document: QTextDocument) -> list[tuple[Any, ...]]:
    found = []
    block = document.firstBlock()
    while block.isValid():
        ranges = tuple(
            (r.start, r.length, r.format.foreground().color().name(), r.format.fontWeight())
            for r in block.layout().formats()
        )
        found.append((block.userState(), ranges))
        block = block.next()
    return found


def whole_highlight(qtbot: Any, text: str) -> list[tuple[Any, ...]]:
    editor = shown_editor(qtbot)
    editor.set_text(text)
    return formats_of(editor.document())


def shown_editor(qtbot: Any) -> TaskEditor:
    editor = TaskEditor()
    qtbot.addWidget(editor)
    editor.resize(700, 400)
    editor.show()
    return editor


def finish(editor: TaskEditor) -> int:
    turns = 0
    while editor.highlighting_left:
        QApplication.processEvents()
        turns += 1
        assert turns < 10_000
    return turns


def test_the_running_qt_lets_the_editor_highlight_a_replacement_in_slices(qtbot: Any) -> None:
    """Pinned here: a Qt without the slot would highlight every replacement whole again."""
    assert available(shown_editor(qtbot).highlighter)


def test_a_replacement_shows_its_screen_highlighted_and_ends_as_a_whole_highlight(
    qtbot: Any,
) -> None:
    editor = shown_editor(qtbot)
    editor.set_text(OTHER)
    editor.replace_text(TEXT)
    assert editor.highlighting_left, "the rest is highlighted in slices, not at once"
    document = editor.document()
    assert document.firstBlock().layout().formats(), "the heading on screen is highlighted"
    assert not document.lastBlock().previous().layout().formats(), "the end is not yet"
    assert finish(editor) > 1
    assert formats_of(document) == whole_highlight(qtbot, TEXT)


def test_the_replacement_is_one_undoable_edit(qtbot: Any) -> None:
    editor = shown_editor(qtbot)
    editor.set_text(OTHER)
    editor.replace_text(TEXT)
    finish(editor)
    assert editor.text() == TEXT
    editor.undo()
    assert editor.text() == OTHER
    editor.redo()
    assert editor.text() == TEXT


def test_what_scrolls_into_view_meanwhile_is_highlighted_before_the_slices_get_there(
    qtbot: Any,
) -> None:
    editor = shown_editor(qtbot)
    editor.replace_text(TEXT)
    editor.verticalScrollBar().setValue(editor.verticalScrollBar().maximum())
    shown = editor.firstVisibleBlock()
    while shown.isValid() and not shown.text().startswith("- Check"):
        shown = shown.next()
    assert shown.isValid() and shown.layout().formats()
    finish(editor)
    assert formats_of(editor.document()) == whole_highlight(qtbot, TEXT)


def test_typing_while_the_slices_run_ends_as_a_whole_highlight_of_the_new_text(
    qtbot: Any,
) -> None:
    editor = shown_editor(qtbot)
    editor.replace_text(TEXT)
    QApplication.processEvents()  # a slice or two
    cursor = QTextCursor(editor.document())
    cursor.setPosition(len(TEXT) // 2)
    cursor.insertText("\n```\n**typed** in the middle\n")  # a fence more: states flip below
    cursor.movePosition(QTextCursor.MoveOperation.Start)
    cursor.insertText("# Typed at the top\n")
    finish(editor)
    assert formats_of(editor.document()) == whole_highlight(qtbot, editor.text())


def test_a_load_meanwhile_stops_the_slices_and_is_highlighted_whole(qtbot: Any) -> None:
    editor = shown_editor(qtbot)
    editor.replace_text(TEXT)
    editor.set_text(OTHER)
    assert not editor.highlighting_left
    assert formats_of(editor.document()) == whole_highlight(qtbot, OTHER)


def test_a_hidden_editor_replaces_its_text_and_highlights_it_once_shown(qtbot: Any) -> None:
    editor = TaskEditor()
    qtbot.addWidget(editor)
    editor.resize(700, 400)
    editor.set_text(OTHER)  # hidden: its highlighter waits to be shown
    editor.replace_text(TEXT)
    assert not editor.highlighting_left
    editor.show()
    assert formats_of(editor.document()) == whole_highlight(qtbot, TEXT)


def test_each_slice_keeps_to_its_budget(qtbot: Any) -> None:
    editor = shown_editor(qtbot)
    later = editor.findChild(HighlightLater)
    assert later is not None
    editor.replace_text(TEXT * 4)
    turns = finish(editor)
    assert later.slices >= 2 and turns >= later.slices
