"""The rows the store hands back: drafts, history entries and cached values with their age."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Generic, NamedTuple, TypeVar

T = TypeVar("T")


def utc_from_seconds(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


@dataclass(frozen=True, slots=True)
class Draft:
    """Unsaved edits of one agent's Task, and the server version they were typed on."""

    server: str
    agent_id: str
    agent_name: str
    text: str
    base_version: int | None  # None: typed before any version was loaded
    saved_at: datetime  # UTC


class HistoryReason(StrEnum):
    """Why a text left the editor by the operator's choice (the history list shows it)."""

    DISCARDED = "discarded"
    USED_THEIRS = "used_theirs"
    RESTORED = "restored"
    LOADED_NEWER = "loaded_newer"
    MERGED = "merged"

    @property
    def label(self) -> str:
        return _REASON_LABELS[self]


_REASON_LABELS = {
    HistoryReason.DISCARDED: "Discarded",
    HistoryReason.USED_THEIRS: "Replaced by their version",
    HistoryReason.RESTORED: "Replaced by a restored version",
    HistoryReason.LOADED_NEWER: "Replaced by a newer version",
    HistoryReason.MERGED: "Replaced by a merge with their version",
}


def reason_label(reason: str) -> str:
    """A reason as the history list shows it; unknown reasons (a newer app) show as written."""
    try:
        return HistoryReason(reason).label
    except ValueError:
        return reason


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """A text the operator replaced, kept so they can browse it and copy from it."""

    id: int
    server: str
    agent_id: str
    agent_name: str
    text: str
    reason: str  # a HistoryReason value, or free text
    base_version: int | None
    created_at: datetime  # UTC

    @property
    def reason_label(self) -> str:
        return reason_label(self.reason)


class Cached(NamedTuple, Generic[T]):
    """A value from the offline cache and when it was fetched from the server (UTC)."""

    value: T
    fetched_at: datetime
