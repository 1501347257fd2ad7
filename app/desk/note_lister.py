"""The notes and collections a server offers to embed, listed on the runner for the picker."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from app.core.models import EmbeddableNote
from app.desk.runner import Runner

if TYPE_CHECKING:
    from app.connect.connection import Connection


class NoteLister(QObject):
    """Asks ``connection`` for its embeddable notes (a 304 when unchanged) and hands them to
    ``prepare`` on the worker (the picker's search keys), so the GUI thread only gets the
    result: ``listed(prepared)``, or ``failed(connection, exc)``."""

    listed = Signal(object)  # what ``prepare`` made of the notes
    failed = Signal(object, object)  # Connection, the exception

    def __init__(
        self,
        runner: Runner,
        prepare: Callable[[list[EmbeddableNote]], object],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._runner = runner
        self._prepare = prepare

    def list_notes(self, connection: Connection) -> None:
        client, prepare = connection.client, self._prepare
        self._runner.submit(
            lambda: prepare(client.embeddable_notes()),
            on_done=self.listed.emit,
            on_error=lambda exc: self.failed.emit(connection, exc),
        )
