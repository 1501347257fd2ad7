"""Why a save happens, and what waits for it: the session's two typed facts about a save."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class EditSave:
    """The operator's edits (Save, Ctrl+S, the owed save once the server is back)."""


@dataclass(frozen=True, slots=True)
class MergeSave:
    """A merge in the editor, every conflict of it resolved (the session's gate checked)."""

    theirs_version: int | None


@dataclass(frozen=True, slots=True)
class RestoreSave:
    """An earlier version made the live Task again, as a new version."""

    version: int


SaveReason = EditSave | MergeSave | RestoreSave
"""Why a save is sent: one value on the save in flight, read where the answer lands. A new
kind (publishing a proposal) is one more case here and one more ``match`` arm."""

EDIT = EditSave()


@dataclass(frozen=True, slots=True)
class AfterSave:
    """What the operator asked to happen once this save lands (quit, switch agent, connect
    elsewhere). It runs only when the save it waited for is confirmed; a refusal, a conflict,
    the server away, a cancel or more typing drops it, so a choice made before a refusal never
    runs on a later, ordinary save."""

    purpose: str  # "quit", "switch to another agent": for the log when it is dropped
    proceed: Callable[[], None]
