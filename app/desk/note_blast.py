"""A note's blast radius for the window: who uses it, what an edit does, delete with the agents.

``NoteBlast`` makes the client calls on the runner and says what happened in typed signals;
widgets observe it and never see the client. A server without the notes' extension (a
spec-only one) has no used-by or impact: the controller says so in one line (``NO_USED_BY``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QObject, QTimer, Signal

from app.client.errors import NoteEmbedded, NotFound
from app.core.diff_model import SideBySide, build_diff
from app.core.expander import Expansion, expand_embeds, task_display_path
from app.core.models import AccessEntry, OrgFile, Reader, TaskDoc
from app.core.note_uses import NoteDoc, NoteImpact, UsedBy
from app.desk.failures import failure_text
from app.desk.runner import Runner

NO_USED_BY = "This server can't say which agents use a note (it has no used-by)."
NO_IMPACT = "This server can't weigh an edit against the runs that use the note."
OPERATORS_ONLY = "Only operators see which agents use a note."
SLOW_AFTER_MS = 300
"""An impact still being worked out after this long gets a progress sign."""


class NotesApi(Protocol):
    """What the controller needs of ``TaskdeskClient``."""

    def used_by(self, display_path: str) -> UsedBy: ...

    def note_impact(self, display_path: str, text: str) -> list[NoteImpact]: ...

    def delete_note(self, display_path: str) -> None: ...

    def note(self, display_path: str) -> OrgFile: ...

    def get_task(self, agent_id: str) -> TaskDoc: ...

    def create_note(
        self, display_path: str, title: str, text: str, access: tuple[AccessEntry, ...]
    ) -> NoteDoc: ...


class NoteBlast(QObject):
    """Used-by, impact, create and delete for notes, each answer a signal."""

    used_by_ready = Signal(object)  # UsedBy
    used_by_failed = Signal(str, str)  # display path, the sentence
    impact_slow = Signal(str)  # display path: the answer takes a while, show a progress sign
    impact_ready = Signal(str, object)  # display path, list[NoteImpact]
    impact_failed = Signal(str, str)
    deleted = Signal(str)
    delete_refused = Signal(str, object)  # display path, tuple of agent ids that embed it
    delete_failed = Signal(str, str)
    created = Signal(object)  # NoteDoc
    create_failed = Signal(str)
    expanded_change_ready = Signal(str, str, str, object)  # agent id, before, after, SideBySide
    expanded_change_failed = Signal(str, str)

    def __init__(
        self,
        runner: Runner,
        client: NotesApi,
        *,
        is_operator: bool,
        org_id: str,
        guild_of: Callable[[str], str | None],
        extensions: bool = True,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._runner = runner
        self._client = client
        self._org_id = org_id
        self._guild_of = guild_of
        self._is_operator = is_operator
        self._extensions = extensions
        self._impact_asked = 0  # the newest impact asked wins; older answers are dropped
        self._slow = QTimer(self)
        self._slow.setSingleShot(True)
        self._slow.setInterval(SLOW_AFTER_MS)
        self._slow_path = ""
        self._slow.timeout.connect(lambda: self.impact_slow.emit(self._slow_path))

    # ------------------------------------------------------------------ used by

    def ask_used_by(self, display_path: str) -> None:
        if not self._extensions:
            self.used_by_failed.emit(display_path, NO_USED_BY)
            return
        if not self._is_operator:
            self.used_by_failed.emit(display_path, OPERATORS_ONLY)
            return
        self._runner.submit(
            lambda: self._client.used_by(display_path),
            on_done=self.used_by_ready.emit,
            on_error=lambda exc: self.used_by_failed.emit(display_path, failure_text(exc)),
        )

    # ------------------------------------------------------------------ impact

    def ask_impact(self, display_path: str, text: str) -> None:
        """What ``text`` would do to every run that reaches the note (nothing is saved)."""
        if not self._extensions or not self._is_operator:
            self.impact_failed.emit(display_path, NO_IMPACT)
            return
        self._impact_asked += 1
        asked = self._impact_asked
        self._slow_path = display_path
        self._slow.start()

        def done(rows: list[NoteImpact]) -> None:
            if asked == self._impact_asked:
                self._slow.stop()
                self.impact_ready.emit(display_path, rows)

        def failed(exc: BaseException) -> None:
            if asked == self._impact_asked:
                self._slow.stop()
                self.impact_failed.emit(display_path, failure_text(exc))

        self._runner.submit(
            lambda: self._client.note_impact(display_path, text), on_done=done, on_error=failed
        )

    # ------------------------------------------------------------------ create, delete

    def create(
        self, display_path: str, title: str, text: str, access: tuple[AccessEntry, ...]
    ) -> None:
        self._runner.submit(
            lambda: self._client.create_note(display_path, title, text, access),
            on_done=self.created.emit,
            on_error=lambda exc: self.create_failed.emit(failure_text(exc)),
        )

    def delete(self, display_path: str) -> None:
        def failed(exc: BaseException) -> None:
            if isinstance(exc, NoteEmbedded) and exc.agent_ids:
                self.delete_refused.emit(display_path, exc.agent_ids)
            else:
                self.delete_failed.emit(display_path, failure_text(exc))

        self._runner.submit(
            lambda: self._client.delete_note(display_path),
            on_done=lambda _: self.deleted.emit(display_path),
            on_error=failed,
        )

    # ------------------------------------------------------------------ one agent's change

    def ask_expanded_change(self, display_path: str, text: str, agent_id: str) -> None:
        """The agent's expanded Task now and with the note's text ``text``, worked out here
        with the expander runs use (the Task and the notes read from the server)."""
        guild_id = self._guild_of(agent_id)
        if guild_id is None:
            self.expanded_change_failed.emit(agent_id, f"The agent {agent_id} is not listed.")
            return

        def work() -> tuple[str, str, SideBySide]:
            task = self._client.get_task(agent_id).content
            seen: dict[str, OrgFile | None] = {}

            def now(path: str) -> OrgFile | None:
                if path not in seen:
                    try:
                        seen[path] = self._client.note(path)
                    except NotFound:
                        seen[path] = None
                return seen[path]

            def then(path: str) -> OrgFile | None:
                found = now(path)
                if path != display_path or found is None:
                    return found
                return OrgFile(path, "note", found.title, text, found.version, found.access)

            reader = Reader(agent_id, guild_id)
            before = self._expand(task, reader, now).text
            after = self._expand(task, reader, then).text
            return before, after, build_diff(before, after)  # off the GUI thread: 256 KB each

        self._runner.submit(
            work,
            on_done=lambda texts: self.expanded_change_ready.emit(agent_id, *texts),
            on_error=lambda exc: self.expanded_change_failed.emit(agent_id, failure_text(exc)),
        )

    def _expand(
        self, task: str, reader: Reader, lookup: Callable[[str], OrgFile | None]
    ) -> Expansion:
        return expand_embeds(
            task,
            org_id=self._org_id,
            reader=reader,
            lookup=lookup,
            task_path=task_display_path(self._org_id, reader.agent_id),
        )
