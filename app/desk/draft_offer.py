"""A draft left from an earlier session, as the session offers it back."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DraftOffer:
    """A draft left from an earlier session (a crash, a closed window) waiting for a choice.

    The window asks "Recover draft of <agent> based on v<base_version> from <saved_at>?".
    """

    agent_id: str
    text: str
    base_version: int | None
    saved_at: str  # ISO 8601 UTC
