"""A double-click in the preview puts the editor's cursor on the source of what was clicked."""

from __future__ import annotations

from app.core.source_position import source_position
from widgets.editor.task_editor import TaskEditor


def place_cursor(editor: TaskEditor, block_text: str, offset: int) -> None:
    """Move the cursor to ``offset`` of the rendered ``block_text``, mapped to the source;
    where it can't be found the cursor stays where it was."""
    found = source_position(editor.text(), block_text, offset)
    if found is None:
        return
    cursor = editor.textCursor()
    cursor.setPosition(min(found, len(editor.text())))
    editor.setTextCursor(cursor)
    editor.ensureCursorVisible()
