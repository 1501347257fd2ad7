"""Edit › Move to a note…: the check the dialog shows, and the note made, on the runner.

``check`` expands the agent's Task as it is and as it would be, with the expander runs use
(the notes read from the server, the new note as the dialog has it), and says whether the
two differ only by the element that wraps the moved text; it also names the agents the
chosen access list lets read the note. ``move`` makes the note; the caller then puts the
embed in the Task (one undo step; the note stays).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import QObject, Signal

from app.client.errors import NotFound
from app.core.expander import expand_embeds, task_display_path
from app.core.extract_note import Extraction, extract, readers, same_but_wrapper
from app.core.models import AccessEntry, AgentRow, OrgFile, Reader
from app.core.note_uses import NoteDoc
from app.desk.failures import failure_text
from app.desk.runner import Runner


class NoteMaking(Protocol):
    def note(self, display_path: str) -> OrgFile: ...

    def create_note(
        self, display_path: str, title: str, text: str, access: tuple[AccessEntry, ...]
    ) -> NoteDoc: ...


@dataclass(frozen=True, slots=True)
class ExtractCheck:
    path: str
    same_but_wrapper: bool
    readers: tuple[AgentRow, ...]
    agent_reads: bool  # the agent whose Task it is can read the note


class NoteExtract(QObject):
    checked = Signal(object)  # ExtractCheck
    check_failed = Signal(str)
    moved = Signal(object)  # Extraction: the note is made; put extraction.task_text in place
    move_failed = Signal(str)

    def __init__(
        self,
        runner: Runner,
        client: NoteMaking,
        org_id: str,
        agents: Callable[[], list[AgentRow]],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._runner = runner
        self._client = client
        self._org_id = org_id
        self._agents = agents
        self._asked = 0  # the newest check wins

    def check(
        self,
        agent: AgentRow,
        task_text: str,
        start: int,
        end: int,
        path: str,
        title: str,
        access: tuple[AccessEntry, ...],
    ) -> None:
        self._asked += 1
        asked = self._asked
        agents = self._agents()

        def work() -> ExtractCheck:
            seen: dict[str, OrgFile | None] = {}

            def now(p: str) -> OrgFile | None:
                if p not in seen:
                    try:
                        seen[p] = self._client.note(p)
                    except NotFound:
                        seen[p] = None
                return seen[p]

            moved = extract(task_text, start, end, path)
            note = OrgFile(path, "note", title, moved.note_text, 1, access)
            reader = Reader(agent.id, agent.guild_id)
            task_path = task_display_path(self._org_id, agent.id)
            before = expand_embeds(
                task_text, org_id=self._org_id, reader=reader, lookup=now, task_path=task_path
            )
            after = expand_embeds(
                moved.task_text,
                org_id=self._org_id,
                reader=reader,
                lookup=lambda p: note if p == path else now(p),
                task_path=task_path,
            )
            who = tuple(readers(access, agents))
            reads = any(a.id == agent.id for a in readers(access, [agent]))
            return ExtractCheck(path, same_but_wrapper(before, after, path), who, reads)

        def done(found: ExtractCheck) -> None:
            if asked == self._asked:
                self.checked.emit(found)

        def failed(exc: BaseException) -> None:
            if asked == self._asked:
                self.check_failed.emit(failure_text(exc))

        self._runner.submit(work, on_done=done, on_error=failed)

    def move(
        self,
        task_text: str,
        start: int,
        end: int,
        path: str,
        title: str,
        access: tuple[AccessEntry, ...],
    ) -> None:
        moved: Extraction = extract(task_text, start, end, path)

        def make() -> Extraction:
            self._client.create_note(path, title, moved.note_text, access)
            return moved

        self._runner.submit(
            make,
            on_done=self.moved.emit,
            on_error=lambda exc: self.move_failed.emit(failure_text(exc)),
        )
