"""Edit › Move to a note… from the Prompt tab: the selection, the dialog, the one-step edit."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from app.core.models import AgentRow
from app.desk.note_extract import NoteExtract
from app.desk.runner import Runner
from widgets.editor.task_editor import TaskEditor
from widgets.notes.move_to_note import MoveToNoteDialog, qt_to_py, replace_selection

if TYPE_CHECKING:
    from app.connect.connection import Connection

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
        moved = dialog.moved
        if moved is None:
            return
        replace_selection(self._editor, start, end, moved)
        self._say(MOVED.format(path=moved.embed[3:-2]))
