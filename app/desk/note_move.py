"""File › Move note…: every embed of a note rewritten as one change set, then the note moved.

The contract has no move (API.md "Notes"), so a move is: the note made at the new path
(``POST /api/notes``, same title, text and access), the Tasks' embeds rewritten as one change
set (all or nothing; Tasks saved meanwhile are rebased and shown again), the embeds in the
notes runs inline at hop 1 rewritten (``PUT``, at the version read), and only then the old
note deleted. Each step is said: when one stops, the sentence tells what is done and what
is not, and a later Move goes on from there (the new note is not made twice).

The server refuses to delete a note a live Task still embeds, code fences included
(EXPANSION.md 1: runs expand those too). So a Task that keeps one there (left as written,
an example) or a Task unticked in the preview keeps the old note in place, said by name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol, TypeVar

from PySide6.QtCore import QObject, Signal

from app.core.change_plan import Edit, PlanRow, ticked_changes
from app.core.embed_rename import fenced_embeds, move_embeds_edit, new_path_problem
from app.core.fleet_models import ChangeSet, PlannedTaskChange
from app.core.models import AccessEntry, OrgFile
from app.core.note_uses import NoteDoc, UsedBy
from app.core.wording import counted
from app.desk.change_set_flow import ChangeSetClient, NoteRecount, live_texts, rebased_rows
from app.desk.failures import failure_text
from app.desk.qobject_alive import alive_check
from app.desk.runner import Runner

T = TypeVar("T")


class MovingClient(ChangeSetClient, Protocol):
    """What a move needs of ``TaskdeskClient``."""

    def used_by(self, display_path: str) -> UsedBy: ...

    def note_doc(self, display_path: str) -> NoteDoc: ...

    def create_note(
        self, display_path: str, title: str, text: str, access: tuple[AccessEntry, ...]
    ) -> NoteDoc: ...

    def put_note(
        self, display_path: str, text: str, expected_version: int, title: str | None = None
    ) -> NoteDoc: ...

    def delete_note(self, display_path: str) -> None: ...


@dataclass(frozen=True, slots=True)
class NoteRewrite:
    """A note whose own text embeds the moved one (a run inlines it at hop 1)."""

    file: OrgFile  # as it is now
    text: str  # with the embeds rewritten

    @property
    def display_path(self) -> str:
        return self.file.display_path

    @property
    def version(self) -> int:
        return self.file.version


@dataclass(frozen=True, slots=True)
class MovePlan:
    """What a move will do, read before anything is written."""

    old: OrgFile
    new_path: str
    agent_ids: tuple[str, ...]  # the Tasks that embed it directly
    notes: tuple[NoteRewrite, ...]
    fenced: tuple[str, ...]  # Tasks keeping an embed of it inside code, as written

    @property
    def edit(self) -> Edit:
        return move_embeds_edit(self.old.display_path, self.new_path)

    @property
    def title(self) -> str:
        return f"Move {self.old.display_path} to {self.new_path}"[:200]

    def notes_after(self) -> dict[str, OrgFile | None]:
        """The notes as the move leaves them, for counting the budget after it: the note at
        its new path, and the notes whose embeds it rewrites with their new texts."""
        moved = replace(
            self.old, display_path=self.new_path, text=self.edit(self.old.text or ""), version=1
        )
        after: dict[str, OrgFile | None] = {self.new_path: moved}
        for note in self.notes:
            after[note.display_path] = replace(note.file, text=note.text)
        return after


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """What a move did, and the one paragraph that says so."""

    change_set: ChangeSet | None
    deleted: bool
    sentence: str
    made_new: bool = True  # False: stopped before the note was made at the new path
    again: bool = False  # stopped where a later Move goes on (nothing of the Tasks saved)


@dataclass(frozen=True, slots=True)
class MoveRebased:
    """Nothing of the Tasks was saved: these rows moved meanwhile and are shown again."""

    rows: list[PlanRow]
    sentence: str


def _plan(client: MovingClient, old_path: str, new_path: str, org_id: str) -> MovePlan:
    from app.client.errors import InvalidRequest, NotFound

    old_path, new_path = old_path.strip(), new_path.strip()
    problem = new_path_problem(old_path, new_path, org_id)
    if problem:
        raise InvalidRequest(problem)
    try:
        old = client.note(old_path)
    except NotFound:
        raise InvalidRequest(f"There is no note at {old_path}.") from None
    if old.kind != "note" or old.text is None:
        raise InvalidRequest(f"{old_path} is a collection or another file: only notes move.")
    try:
        client.note(new_path)
    except NotFound:
        pass
    else:
        raise InvalidRequest(f"A file already exists at {new_path}: choose another path.")
    uses = client.used_by(old_path).uses
    edit = move_embeds_edit(old_path, new_path)
    agent_ids = tuple(dict.fromkeys(u.agent_id for u in uses if u.hop == 1))
    via = sorted({u.via for u in uses if u.hop == 2 and u.via != old_path})
    notes = []
    for path in via:
        doc = client.note_doc(path)
        rewritten = edit(doc.text)
        if rewritten != doc.text:
            notes.append(NoteRewrite(doc.file, rewritten))
    tasks = {t.agent_id: t.content for t in live_texts(client, list(agent_ids))}
    fenced = tuple(a for a in agent_ids if fenced_embeds(tasks.get(a, ""), old_path))
    return MovePlan(old, new_path, agent_ids, tuple(notes), fenced)


def _move(
    client: MovingClient,
    plan: MovePlan,
    rows: Sequence[PlanRow],
    made_new: bool,
    recount: NoteRecount,
) -> MoveOutcome | MoveRebased:
    """Blocking, for a worker: the steps in order, stopping at the first that can't go."""
    from app.client.errors import (
        ChangeSetConflict,
        FileExists,
        InvalidRequest,
        NoteEmbedded,
        TaskdeskError,
    )

    old, new = plan.old.display_path, plan.new_path
    if not made_new:
        try:
            client.create_note(new, plan.old.title, plan.edit(plan.old.text or ""), plan.old.access)
        except TaskdeskError as exc:
            return MoveOutcome(
                None,
                False,
                f"Nothing was moved: {failure_text(exc)}",
                made_new=False,
                again=not isinstance(exc, (FileExists, InvalidRequest)),  # those stay so
            )
    going = ticked_changes(rows)
    made: ChangeSet | None = None
    if going:
        changes = [PlannedTaskChange(r.agent_id, r.expected_version, r.after) for r in going]
        try:
            made = client.create_change_set(plan.title, changes)
        except ChangeSetConflict as moved:
            fresh = rebased_rows(client, list(rows), moved.conflicts, recount)
            count = len(moved.conflicts)
            which = "1 Task was" if count == 1 else f"{count:,} Tasks were"
            return MoveRebased(
                fresh,
                f"The note is at {new} now, but no Task was saved: {which} saved by someone "
                "else since the preview. They are merged with the change and shown again: "
                "Move again to finish.",
            )
        except TaskdeskError as exc:
            return MoveOutcome(
                None,
                False,
                f"The note is at {new} now, but no Task was saved: {failure_text(exc)} "
                "Move again to finish.",
                again=True,
            )
    count = len(made.versions) if made else 0
    tasks = (
        "no Task rewritten"
        if not count
        else f"{counted(count, 'Task')} rewritten as one change set"
    )
    failed_notes = []
    for note in plan.notes:
        try:
            client.put_note(note.display_path, note.text, note.version)
        except TaskdeskError as exc:
            failed_notes.append(f"{note.display_path} ({failure_text(exc).rstrip('.')})")
    if failed_notes:
        return MoveOutcome(
            made,
            False,
            f"The note is at {new} and {tasks}, but the old note stays at {old}: the embeds "
            f"in {', '.join(failed_notes)} could not be rewritten. Rewrite them, then delete "
            "the old note.",
        )
    try:
        client.delete_note(old)
    except NoteEmbedded as kept:
        who = ", ".join(kept.agent_ids) or "some agent"
        why = (
            "inside a code fence, left as written"
            if set(kept.agent_ids) <= set(plan.fenced)
            else "unticked in the preview, or saved with it since"
        )
        return MoveOutcome(
            made,
            False,
            f"The note is at {new} and {tasks}, but the old note stays at {old}: the Task "
            f"of {who} still embeds it ({why}). Edit that Task, then delete the old note.",
        )
    except TaskdeskError as exc:
        return MoveOutcome(
            made,
            False,
            f"The note is at {new} and {tasks}, but the old note at {old} could not be "
            f"deleted: {failure_text(exc)}",
        )
    some = len(plan.notes)
    notes = f", {counted(some, 'note')} rewritten" if some else ""
    return MoveOutcome(
        made, True, f"Moved {old} to {new}: {tasks}{notes}. The note starts again at version 1."
    )


class NoteMove(QObject):
    """``plan(old, new)`` → ``planned(MovePlan)``; ``move(plan, rows)`` → ``moved`` or
    ``rebased(rows, sentence)``; every failure is ``failed(sentence)``."""

    planned = Signal(object)  # MovePlan
    moved = Signal(object)  # MoveOutcome
    rebased = Signal(object, str)  # list[PlanRow], what happened
    failed = Signal(str)

    def __init__(
        self, runner: Runner, client: MovingClient, org_id: str, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._runner = runner
        self._client = client
        self._org_id = org_id
        self._made_new: str | None = None  # the new path this move already made the note at
        self._alive = alive_check(self)
        self.busy = False

    def plan(self, old_path: str, new_path: str) -> None:
        client, org = self._client, self._org_id
        self.busy = True
        self._runner.submit(
            lambda: _plan(client, old_path, new_path, org),
            on_done=self._done(self.planned.emit),
            on_error=self._failed,
        )

    def move(self, plan: MovePlan, rows: Sequence[PlanRow]) -> None:
        client, all_rows = self._client, list(rows)
        made_new = self._made_new == plan.new_path
        recount = NoteRecount(client, self._org_id, plan.notes_after())

        def step() -> MoveOutcome | MoveRebased:
            return _move(client, plan, all_rows, made_new, recount)

        def done(outcome: MoveOutcome | MoveRebased) -> None:
            if isinstance(outcome, MoveRebased):
                self._made_new = plan.new_path  # a later Move must not make it again
                self.rebased.emit(outcome.rows, outcome.sentence)
            else:
                if outcome.made_new:
                    self._made_new = plan.new_path
                self.moved.emit(outcome)

        self.busy = True
        self._runner.submit(step, on_done=self._done(done), on_error=self._failed)

    def _done(self, then: Callable[[T], None]) -> Callable[[T], None]:
        def done(result: T) -> None:
            if self._alive():
                self.busy = False
                then(result)

        return done

    def _failed(self, exc: BaseException) -> None:
        if self._alive():
            self.busy = False
            self.failed.emit(failure_text(exc))
