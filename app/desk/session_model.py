"""The session's whole state as one immutable record, and the phase its save is in."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import Enum

from app.core.models import TaskDoc
from app.desk.retry_backoff import RetryBackoff
from app.desk.save_intents import EDIT, AfterSave, SaveReason
from app.desk.session_state import DraftOffer, SessionState


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
        """What the window draws."""
        return SessionState(
            agent_id=self.agent_id,
            base_version=self.base_version,
            base_text=self.base_text,
            live=self.live,
            dirty=self.dirty,
            saving=self.phase is SessionPhase.SAVING,
            pending_save=self.phase is SessionPhase.SAVE_OWED or self.save_again,
            offline=self.offline,
            offline_as_of=self.last_contact if self.offline else None,
            conflict=self.conflict,
            saved_text_confirmed=self.confirmed,
            draft=self.draft,
            loading=self.loading,
            from_cache=self.from_cache,
            retry_in_s=self.retry_in,
        )


def iso(moment: datetime) -> str:
    """``moment`` as the window shows it: ISO 8601 UTC to the second."""
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
