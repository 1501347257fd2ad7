"""The dialogs that put text into the editor: Insert › Note or Table, and File › Local history."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from app.desk.runner import Runner
from widgets.editor.task_editor import TaskEditor

if TYPE_CHECKING:
    from app.connect.connection import Connection
    from app.core.models import AgentRow
    from widgets.editor.insert_picker import InsertPickerDialog  # with the first Insert
    from widgets.versions.local_history_dialog import LocalHistoryDialog


class InsertDialogs(QObject):
    """Opens the Insert picker (``picker``) and the local history (``history_dialog``); what
    the operator chooses goes in at the editor's cursor as one undo step. ``before_insert``
    brings the editor into view first."""

    def __init__(
        self,
        runner: Runner,
        editor: TaskEditor,
        owner: QWidget,
        before_insert: Callable[[], None],
        agent: Callable[[], AgentRow | None] = lambda: None,
    ) -> None:
        super().__init__(owner)
        self._runner = runner
        self._editor = editor
        self._owner = owner  # the dialogs' parent
        self._before_insert = before_insert
        self._agent = agent  # the agent being edited: the picker marks what it can read
        self.picker: InsertPickerDialog | None = None
        self.history_dialog: LocalHistoryDialog | None = None

    def open_picker(self, kind: Literal["note", "collection"]) -> None:
        from widgets.editor.insert_picker import InsertPickerDialog  # the tab preloads it

        picker = InsertPickerDialog(
            self._editor.embeddable_model, kind, self._owner, agent=self._agent()
        )
        self.picker = picker

        def done(result: int) -> None:
            if self.picker is not picker:
                return  # finished again for a dialog already handled
            path = picker.chosen_path()
            if result and path:
                self._editor.insert_embed(path)
                self._editor.setFocus()
            self.picker = None
            picker.deleteLater()

        picker.finished.connect(done)
        picker.open()

    def open_local_history(self, connection: Connection, agent: AgentRow) -> None:
        """This agent's replaced texts, read from the store on the runner's disk lane."""
        from widgets.versions.local_history_dialog import LocalHistoryDialog, insert_at_cursor

        store, key, agent_id = connection.store, connection.server_key, agent.id
        dialog = LocalHistoryDialog(
            agent.name, lambda: store.history(key, agent_id), self._runner, self._owner
        )

        def insert(text: str) -> None:
            self._before_insert()
            insert_at_cursor(self._editor, text)  # one undo step, at the cursor

        dialog.insert_requested.connect(insert)

        def closed() -> None:
            self.history_dialog = None
            dialog.deleteLater()

        dialog.finished.connect(closed)
        self.history_dialog = dialog
        dialog.load()
        dialog.open()
