"""The session's whole state as one immutable record, and the phase its save is in."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import Enum

from app.core.models import TaskDoc
from app.desk.draft_offer import DraftOffer
from app.desk.retry_backoff import RetryBackoff
from app.desk.save_intents import EDIT, AfterSave, SaveReason


class SessionPhase(Enum):
    """Where the save of the open Task stands: exactly one at a time.

    The data a phase needs lives beside it in the model and only there: ``put`` while
    SAVING, ``conflict`` while CONFLICT.
    """

    CLOSED = "closed"  # no agent is open
    IDLE = "idle"  # nothing is out or owed (the editor may still hold edits: ``dirty``)
    SAVING = "saving"  # one save is out (``put``); ``save_again`` queues one more behind it
    SAVE_OWED = "save_owed"  # a save waits for the server; the retry timer paces the tries
    AWAITING_THEIRS = "awaiting_theirs"  # the server refused a save as a conflict: reading it
    CONFLICT = "conflict"  # their version waits for Keep mine or Use theirs; nothing is sent


class Reading(Enum):
    """The read of the live Task: at most one out, and at most one more asked for behind it."""

    IDLE = "idle"
    OUT = "out"
    OUT_AND_AGAIN = "out_and_again"  # asked for while one was out: it may predate the reason


@dataclass(frozen=True, slots=True)
class PutRecord:
    """One PUT in flight: what was sent, on which version, and the edit count when sent."""

    gen: int
    agent_id: str
    text: str
    expected: int | None
    edit_seq: int
    reason: SaveReason = EDIT


@dataclass(frozen=True, slots=True)
class Discarded:
    """What the last Discard dropped, for Undo: the text and the version it was typed on."""

    text: str
    base_version: int | None
    base_text: str | None


@dataclass(frozen=True, slots=True)
class SessionModel:
    """Everything the session knows about the open agent; transitions return a new one."""

    gen: int = 0  # bumped by every open: answers meant for an earlier agent are ignored
    agent_id: str | None = None
    agent_name: str = ""
    phase: SessionPhase = SessionPhase.CLOSED
    put: PutRecord | None = None
    save_again: bool = False
    conflict: TaskDoc | None = None
    base_version: int | None = None  # the version the editor text is based on
    base_text: str | None = None  # the server's text at base_version, when known
    live: TaskDoc | None = None  # the newest Task known from the server (or the cache)
    dirty: bool = False  # the editor holds edits the server does not have
    confirmed: bool = False  # the server holds exactly the editor text
    loading: bool = False  # no text has arrived yet
    from_cache: bool = False
    fresh: bool = False  # the server has answered at least once for this agent
    reading: Reading = Reading.IDLE
    offline: bool = False
    last_contact: str | None = None  # when the text shown was fetched (ISO 8601 UTC)
    local_done: bool = False  # the cache and the drafts have been looked at
    offline_news: str | None = None  # why the server is away, told once the cache is known
    retry_in: float | None = None  # seconds until the scheduled retry; None when none is
    backoff: RetryBackoff = field(default_factory=RetryBackoff)
    draft: DraftOffer | None = None
    discarded: Discarded | None = None
    drafted_edits: int | None = None  # the editor's edit count when its draft was last written
    after_save: AfterSave | None = None  # what waits for the save out now; nothing else keeps it
    merge_open: int | None = None  # a merge is in the editor with this many open conflicts

    def __post_init__(self) -> None:
        # The phase and its data agree; a transition that breaks this is a bug, caught here.
        assert (self.phase is SessionPhase.SAVING) == (self.put is not None), self.phase
        assert (self.phase is SessionPhase.CONFLICT) == (self.conflict is not None), self.phase
        assert self.phase is SessionPhase.SAVING or not self.save_again, self.phase
        assert (self.phase is SessionPhase.CLOSED) == (self.agent_id is None), self.phase

    @classmethod
    def opened(
        cls, gen: int, agent_id: str, agent_name: str, backoff: RetryBackoff
    ) -> SessionModel:
        """The model of a freshly opened agent: nothing known yet, the Task on its way."""
        return cls(
            gen=gen,
            agent_id=agent_id,
            agent_name=agent_name or agent_id,
            phase=SessionPhase.IDLE,
            loading=True,
            backoff=backoff.reset(),
        )

    @property
    def has_edits(self) -> bool:
        """Edits, an owed save or an open conflict: the editor text is the operator's."""
        return self.dirty or self.phase in (SessionPhase.SAVE_OWED, SessionPhase.CONFLICT)

    def text_of_version(self, version: int) -> str | None:
        """The server's text of ``version``, when the live Task or its revisions hold it."""
        live = self.live
        if live is None:
            return None
        if live.version == version:
            return live.content
        for rev in live.revisions:
            if rev.version == version:
                return rev.content
        return None

    def snapshot(self) -> SessionState:
        """What the window draws: a read-only view of this model."""
        return SessionState(self)


def iso(moment: datetime) -> str:
    """``moment`` as the window shows it: ISO 8601 UTC to the second."""
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


class SessionState:
    """Everything the window needs to draw the save/conflict/offline parts of the Prompt tab.

    - ``base_version``: the version the editor text is based on (what a save expects).
    - ``base_text``: the server's text of ``base_version`` when known: a merge's base.
    - ``live``: the newest Task known from the server (or the cache, see ``from_cache``).
    - ``dirty``: the editor holds edits the server does not have.
    - ``saving``: one save is in flight (never more than one).
    - ``pending_save``: a save is owed: waiting for the server to come back, or queued
      behind the one in flight.
    - ``offline`` / ``offline_as_of``: the server cannot be reached; the text shown is the
      copy fetched at ``offline_as_of`` (None when nothing was ever fetched).
    - ``conflict``: someone else's newer version, while the operator chooses Keep mine or
      Use theirs. Nothing is saved until they choose.
    - ``saved_text_confirmed``: the server holds exactly the editor text; only then may the
      window say "Saved".
    - ``draft``: a draft from an earlier session the operator has not answered yet.
    - ``loading``: the Task has not arrived yet.
    - ``retry_in_s``: seconds until the next automatic try while offline (None otherwise).

    A read-only view of the session's ``SessionModel`` (``model``: None before any agent is
    open), so nothing the window reads is a second copy of the session's facts. Two views are
    equal when every field the window draws is.
    """

    __slots__ = ("_m",)

    FIELDS = (
        "agent_id",
        "base_version",
        "base_text",
        "live",
        "dirty",
        "saving",
        "pending_save",
        "offline",
        "offline_as_of",
        "conflict",
        "saved_text_confirmed",
        "draft",
        "loading",
        "from_cache",
        "retry_in_s",
    )

    def __init__(self, model: SessionModel | None = None) -> None:
        self._m = model if model is not None else SessionModel()

    @property
    def agent_id(self) -> str | None:
        return self._m.agent_id

    @property
    def base_version(self) -> int | None:
        return self._m.base_version

    @property
    def base_text(self) -> str | None:
        return self._m.base_text

    @property
    def live(self) -> TaskDoc | None:
        return self._m.live

    @property
    def dirty(self) -> bool:
        return self._m.dirty

    @property
    def saving(self) -> bool:
        return self._m.put is not None  # a put is in flight exactly while SAVING

    @property
    def pending_save(self) -> bool:
        m = self._m
        return m.save_again or m.phase is SessionPhase.SAVE_OWED

    @property
    def offline(self) -> bool:
        return self._m.offline

    @property
    def offline_as_of(self) -> str | None:
        return self._m.last_contact if self._m.offline else None

    @property
    def conflict(self) -> TaskDoc | None:
        return self._m.conflict

    @property
    def saved_text_confirmed(self) -> bool:
        return self._m.confirmed

    @property
    def draft(self) -> DraftOffer | None:
        return self._m.draft

    @property
    def loading(self) -> bool:
        return self._m.loading

    @property
    def from_cache(self) -> bool:
        return self._m.from_cache

    @property
    def retry_in_s(self) -> float | None:
        return self._m.retry_in

    @property
    def has_unsaved(self) -> bool:
        """Leaving now would drop something: edits, an owed save, or an open conflict."""
        return self.dirty or self.pending_save or self.saving or self.conflict is not None

    def _drawn(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SessionState) and self._drawn() == other._drawn()

    def __hash__(self) -> int:
        return hash(self._drawn())

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.FIELDS)
        return f"SessionState({shown})"
