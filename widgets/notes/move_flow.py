"""Edit › Move to a note… and File › Open note… from the Prompt tab."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from app.core.models import AgentRow
from app.desk.runner import Runner
from widgets.editor.task_editor import TaskEditor

if TYPE_CHECKING:
    from app.connect.connection import Connection
    from widgets.editor.insert_picker import InsertPickerDialog
    from widgets.notes.move_to_note import MoveToNoteDialog  # with its flow's first start
    from widgets.notes.note_editor import NoteEditorDialog

SELECT_FIRST = "Select the text to move into a note first (in Edit)."
OPERATORS_ONLY = "Only operators can make notes."
MOVED = "Moved to {path}. Edit › Undo puts the text back; the note stays."


class MoveToNoteFlow:
    """Narrow handles: the editor, the open agent and its guild's name, the connection, and
    where a sentence goes (``say``)."""

    def __init__(
        self,
        runner: Runner,
        editor: TaskEditor,
        agent: Callable[[], AgentRow | None],
        guild_name: Callable[[], str],
        connection: Callable[[], Connection | None],
        say: Callable[[str], None],
    ) -> None:
        self._runner = runner
        self._editor = editor
        self._agent = agent
        self._guild_name = guild_name
        self._connection = connection
        self._say = say
        self.dialog: MoveToNoteDialog | None = None

    def start(self) -> None:
        connection, agent = self._connection(), self._agent()
        if connection is None or agent is None:
            return
        if connection.me.type != "operator":
            self._say(OPERATORS_ONLY)
            return
        # Here, not at the top: the note's extraction and its dialog (~7 ms of imports) are
        # not on the way to the first Task (the tab preloads them once that is on screen).
        from app.desk.note_extract import NoteExtract
        from widgets.notes.move_to_note import MoveToNoteDialog, qt_to_py

        cursor = self._editor.textCursor()
        text = self._editor.toPlainText()
        start = qt_to_py(text, cursor.selectionStart())
        end = qt_to_py(text, cursor.selectionEnd())
        if not text[start:end].strip() or self._editor.isReadOnly():
            self._say(SELECT_FIRST)
            return
        controller = NoteExtract(
            self._runner, connection.client, connection.me.org_id, lambda: connection.agents
        )
        dialog = MoveToNoteDialog(
            controller, agent, self._guild_name(), connection.me.org_id, text, start, end,
            self._editor.window(),
        )  # fmt: skip
        self.dialog = dialog
        dialog.accepted.connect(lambda: self._moved(dialog, start, end))
        dialog.finished.connect(lambda _: setattr(self, "dialog", None))
        dialog.open()

    def _moved(self, dialog: MoveToNoteDialog, start: int, end: int) -> None:
        from widgets.notes.move_to_note import replace_selection

        moved = dialog.moved
        if moved is None:
            return
        replace_selection(self._editor, start, end, moved)
        self._say(MOVED.format(path=moved.embed[3:-2]))


class OpenNoteFlow:
    """File › Open note…: the Insert picker's notes, the chosen one opened in its editor."""

    def __init__(
        self,
        runner: Runner,
        editor: TaskEditor,
        agent: Callable[[], AgentRow | None],
        connection: Callable[[], Connection | None],
    ) -> None:
        self._runner = runner
        self._editor = editor
        self._agent = agent
        self._connection = connection
        self.picker: InsertPickerDialog | None = None
        self.note_editor: NoteEditorDialog | None = None

    def start(self) -> None:
        from widgets.editor.insert_picker import InsertPickerDialog

        picker = InsertPickerDialog(
            self._editor.embeddable_model, "note", self._editor.window(), agent=self._agent()
        )
        picker.setWindowTitle("Open note")
        picker.insert_button.setText("&Open")
        picker.insert_button.setAccessibleName("Open")
        self.picker = picker
        picker.finished.connect(lambda result: self._chosen(picker, result))
        picker.open()

    def _chosen(self, picker: InsertPickerDialog, result: int) -> None:
        if self.picker is not picker:
            return
        self.picker = None
        path, connection = picker.chosen_path(), self._connection()
        picker.deleteLater()
        if result and path and connection is not None:
            from widgets.notes.preview_actions import open_note_editor

            self.note_editor = open_note_editor(
                self._runner, connection, path, self._editor.window()
            )
