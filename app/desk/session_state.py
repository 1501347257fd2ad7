"""What a Task session shows the window: one immutable snapshot per change."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.models import TaskDoc


@dataclass(frozen=True, slots=True)
class DraftOffer:
    """A draft left from an earlier session (a crash, a closed window) waiting for a choice.

    The window asks "Recover draft of <agent> based on v<base_version> from <saved_at>?".
    """

    agent_id: str
    text: str
    base_version: int | None
    saved_at: str  # ISO 8601 UTC


@dataclass(frozen=True, slots=True)
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
    """

    agent_id: str | None = None
    base_version: int | None = None
    base_text: str | None = None
    live: TaskDoc | None = None
    dirty: bool = False
    saving: bool = False
    pending_save: bool = False
    offline: bool = False
    offline_as_of: str | None = None
    conflict: TaskDoc | None = None
    saved_text_confirmed: bool = False
    draft: DraftOffer | None = None
    loading: bool = False
    from_cache: bool = False
    retry_in_s: float | None = None

    @property
    def has_unsaved(self) -> bool:
        """Leaving now would drop something: edits, an owed save, or an open conflict."""
        return self.dirty or self.pending_save or self.saving or self.conflict is not None
