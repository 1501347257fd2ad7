"""A change set from preview to Apply and Revert: the controller the preview dialog observes.

``preview(agent_ids, edit)`` reads each Task and builds the rows off the GUI thread
(``preview_ready``); ``apply(title, rows)`` sends the ticked rows as one change set
(``applied``); when some Tasks moved meanwhile nothing is saved, those rows are merged onto
the live texts by the three-way merge and shown again (``rebased``), never written over;
``revert(id)`` puts a change set's Tasks back (``reverted``, its ``skipped`` listed).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Protocol

from PySide6.QtCore import QObject, Signal, SignalInstance

from app.core.change_plan import (
    Edit,
    PlanRow,
    TaskAsIs,
    build_plan,
    rebase_row,
    ticked_changes,
    with_shapes,
)
from app.core.expander import expand_embeds, task_display_path
from app.core.fleet_models import ChangeSet, HealthRow, LiveTaskText, PlannedTaskChange
from app.core.models import AgentRow, OrgFile, Reader, TaskDoc
from app.desk.fleet_desk import fleet_failure
from app.desk.qobject_alive import alive_check
from app.desk.runner import Runner

READ_THREADS = 4
"""Tasks read side by side for a preview: a thousand one at a time would take seconds, and
more threads only fight the GUI thread for the interpreter."""


class TaskListReader(Protocol):
    """What reading many live Tasks needs of ``TaskdeskClient``."""

    def get_task(self, agent_id: str) -> TaskDoc: ...

    def live_tasks(self, agent_ids: list[str]) -> list[LiveTaskText]: ...


class ChangeSetClient(Protocol):
    """What a change set needs of ``TaskdeskClient``."""

    def org_health(self) -> list[HealthRow]: ...

    def agents(self) -> list[AgentRow]: ...

    def get_task(self, agent_id: str) -> TaskDoc: ...

    def note(self, display_path: str) -> OrgFile: ...

    def live_tasks(self, agent_ids: list[str]) -> list[LiveTaskText]: ...

    def create_change_set(self, title: str, changes: list[PlannedTaskChange]) -> ChangeSet: ...

    def revert_change_set(self, change_set_id: str) -> ChangeSet: ...


class NoteRecount:
    """The embedded bytes of a new Task text, expanded by the one expander with the notes as
    the server has them (each note fetched once), or as ``notes_as`` says they will be once
    the change is made (a moved note at its new path)."""

    def __init__(
        self,
        client: ChangeSetClient,
        org_id: str,
        notes_as: Mapping[str, OrgFile | None] | None = None,
    ) -> None:
        self._client = client
        self._org_id = org_id
        self._notes: dict[str, OrgFile | None] = dict(notes_as or {})

    def _lookup(self, path: str) -> OrgFile | None:
        if path not in self._notes:
            from app.client.errors import NotFound

            try:
                self._notes[path] = self._client.note(path)
            except NotFound:
                self._notes[path] = None
        return self._notes[path]

    def __call__(self, task: TaskAsIs, text: str) -> int:
        expansion = expand_embeds(
            text,
            org_id=self._org_id,
            reader=Reader(task.agent_id, task.guild_id),
            lookup=self._lookup,
            task_path=task_display_path(self._org_id, task.agent_id),
        )
        return expansion.embedded_bytes


def live_texts(client: TaskListReader, agent_ids: list[str]) -> list[LiveTaskText]:
    """In a few requests where the server can (EXTENSION), else one Task at a time."""
    from app.client.errors import NotFound

    try:
        return client.live_tasks(agent_ids)
    except NotFound:
        with ThreadPoolExecutor(READ_THREADS) as pool:
            docs = list(pool.map(client.get_task, agent_ids))
        return [LiveTaskText(d.agent_id, d.version, d.content) for d in docs]


def read_tasks(
    client: ChangeSetClient, agent_ids: Sequence[str], recount: NoteRecount | None = None
) -> list[TaskAsIs]:
    """Each agent's live Task with its embedded bytes (from the fleet's health rows). A member
    has no health rows (operators only): the bytes are then counted here by ``recount``, from
    the notes the member may read."""
    from app.client.errors import OperatorsOnly

    try:
        health = {row.id: row for row in client.org_health()}
    except OperatorsOnly:
        if recount is None:
            raise
        return _read_as_member(client, agent_ids, recount)
    wanted = [a for a in agent_ids if a in health]
    texts = {t.agent_id: t for t in live_texts(client, wanted)}
    return [
        TaskAsIs(
            a,
            health[a].name,
            health[a].guild_id,
            texts[a].version,
            texts[a].content,
            health[a].embedded_bytes,
            # The server's check of the live text, unless the Task moved since the rows.
            health[a].shape if health[a].task_version == texts[a].version else None,
        )
        for a in wanted
        if a in texts
    ]


def _read_as_member(
    client: ChangeSetClient, agent_ids: Sequence[str], recount: NoteRecount
) -> list[TaskAsIs]:
    agents = {a.id: a for a in client.agents()}
    wanted = [a for a in agent_ids if a in agents]
    found = []
    for text in live_texts(client, wanted):
        agent = agents[text.agent_id]
        bare = TaskAsIs(agent.id, agent.name, agent.guild_id, text.version, text.content, 0)
        found.append(replace(bare, embedded_bytes=recount(bare, text.content)))
    return found


class ChangeSetFlow(QObject):
    """The preview's controller; every outcome is a signal, every failure one sentence."""

    preview_ready = Signal(object)  # list[PlanRow]
    shapes_checked = Signal(object)  # dict[agent id, shape codes]: the rows' new texts
    applied = Signal(object)  # ChangeSet
    rebased = Signal(object, str)  # list[PlanRow], what happened
    reverted = Signal(object)  # ChangeSet
    failed = Signal(str)

    def __init__(
        self,
        runner: Runner,
        client: ChangeSetClient,
        org_id: str,
        parent: QObject | None = None,
        *,
        notes_as: Mapping[str, OrgFile | None] | None = None,
    ) -> None:
        super().__init__(parent)
        self._runner = runner
        self._client = client
        self._org_id = org_id
        self._notes_as = dict(notes_as or {})  # notes as the change will leave them
        self.busy = False
        self._alive = alive_check(self)  # a closed preview drops the answers still coming

    def _recount(self) -> NoteRecount:
        return NoteRecount(self._client, self._org_id, self._notes_as)

    def preview(self, agent_ids: Sequence[str], edit: Edit) -> None:
        """The rows first (``preview_ready``), then each new text's shape check
        (``shapes_checked``, by agent), so a thousand Tasks show in time."""
        client, ids, recount = self._client, list(agent_ids), self._recount()

        def build() -> list[PlanRow]:
            return build_plan(read_tasks(client, ids, recount), edit, recount, check_shapes=False)

        def checked(shapes: dict[str, tuple[str, ...]]) -> None:
            if self._alive():
                self.shapes_checked.emit(shapes)

        def done(rows: list[PlanRow]) -> None:
            self.preview_ready.emit(rows)
            self._runner.submit(lambda: with_shapes(rows), on_done=checked, on_error=self._failed)

        self.busy = True
        self._runner.submit(build, on_done=self._done_with(done), on_error=self._failed)

    def _done_with(self, then: Callable[[list[PlanRow]], None]) -> Callable[[list[PlanRow]], None]:
        def done(rows: list[PlanRow]) -> None:
            if self._alive():
                self.busy = False
                then(rows)

        return done

    def apply(self, title: str, rows: Sequence[PlanRow]) -> None:
        going = ticked_changes(rows)
        if not title.strip():
            self.failed.emit("Give the change set a title: it names the versions it makes.")
            return
        if not going:
            self.failed.emit("Nothing to apply: tick at least one Task that the edit changes.")
            return
        changes = [PlannedTaskChange(r.agent_id, r.expected_version, r.after) for r in going]
        client, all_rows, recount = self._client, list(rows), self._recount()
        from app.client.errors import ChangeSetConflict

        def send() -> ChangeSet | tuple[list[PlanRow], str]:
            try:
                return client.create_change_set(title.strip(), changes)
            except ChangeSetConflict as moved:
                return rebased_rows(client, all_rows, moved.conflicts, recount), moved.message

        def done(outcome: ChangeSet | tuple[list[PlanRow], str]) -> None:
            if not self._alive():
                return
            self.busy = False
            if isinstance(outcome, ChangeSet):
                self.applied.emit(outcome)
            else:
                self.rebased.emit(*outcome)

        self.busy = True
        self._runner.submit(send, on_done=done, on_error=self._failed)

    def revert(self, change_set_id: str) -> None:
        client = self._client
        self._submit(lambda: client.revert_change_set(change_set_id), self.reverted)

    def _submit(self, fn: Callable[[], object], signal: SignalInstance) -> None:
        def done(result: object) -> None:
            if self._alive():
                self.busy = False
                signal.emit(result)

        self.busy = True
        self._runner.submit(fn, on_done=done, on_error=self._failed)

    def _failed(self, exc: BaseException) -> None:
        if not self._alive():
            return
        self.busy = False
        self.failed.emit(fleet_failure(exc))


def rebased_rows(
    client: ChangeSetClient,
    rows: list[PlanRow],
    conflicts: Sequence[tuple[str, int]],
    recount: NoteRecount,
) -> list[PlanRow]:
    moved = {agent_id for agent_id, _ in conflicts}
    fresh = []
    for row in rows:
        if row.agent_id not in moved:
            fresh.append(row)
            continue
        live = client.get_task(row.agent_id)
        as_is = TaskAsIs(
            row.agent_id, row.name, row.guild_id, live.version, live.content, row.embedded_before
        )
        fresh.append(rebase_row(row, as_is, recount))
    return fresh
