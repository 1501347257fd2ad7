"""The notes and collections to insert, listed once per server, after its first preview."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from app.core.user_message import MessageKey
from app.desk.failures import describe_failure
from app.desk.note_lister import NoteLister
from app.desk.runner import Runner
from widgets.editor.embeddable_model import with_search_keys
from widgets.window.messages import Messages

if TYPE_CHECKING:
    from app.connect.connection import Connection

NOTES_AT_THE_LATEST_MS = 1_500
"""The notes to insert are listed after the first preview, or this long after connecting."""

NOT_LISTED = "The notes to insert could not be listed"


class NotesToInsert(QObject):
    """Lists a server's notes (with their search keys, off the GUI thread) for the Insert
    picker and the `![[` completer: ``listed(NoteIndex)`` when they are in.

    Not at once: reading 50,000 of them keeps a worker busy ~0.5 s, and every Qt call of the
    GUI thread waits for the GIL behind it (building and showing the first Task took 3-5x as
    long). ``list_now`` is connected to the first preview; with nothing to preview (no
    agents, a failure) they come ``NOTES_AT_THE_LATEST_MS`` after connecting. A failure is a
    warning of its own, taken back once a later preview lists them.
    """

    listed = Signal(object)  # widgets.editor.note_search.NoteIndex

    def __init__(self, runner: Runner, messages: Messages, parent: QObject) -> None:
        super().__init__(parent)
        self._runner = runner
        self._messages = messages
        self._connection: Connection | None = None  # the server open now
        self._due: Connection | None = None  # the server whose notes to list next
        self._lister = NoteLister(runner, with_search_keys, self)
        self._lister.listed.connect(self._on_listed)
        self._lister.failed.connect(self._on_failed)

    def list_for(self, connection: Connection) -> None:
        """A new server: its notes are listed after its first preview."""
        self._connection = self._due = connection
        QTimer.singleShot(NOTES_AT_THE_LATEST_MS, self, self.list_now)

    def list_now(self, *_shown: object) -> None:
        connection, self._due = self._due, None
        if connection is None or connection is not self._connection:
            return  # listed already, or a newer server has its own
        if self._runner.closed:
            return  # the window is closing: its timer may still fire
        self._lister.list_notes(connection)

    def _on_listed(self, notes: object) -> None:
        self._messages.withdraw(MessageKey.NOTES)
        self.listed.emit(notes)

    def _on_failed(self, connection: Connection, exc: BaseException) -> None:
        self._messages.warning(describe_failure(exc, doing=NOT_LISTED).text, MessageKey.NOTES)
        if connection is self._connection:
            self._due = connection  # asked again after the next preview
