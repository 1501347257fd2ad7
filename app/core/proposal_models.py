"""A proposal of a Task's whole text, as every layer sees it (API.md "Proposals")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.core.models import TaskDoc

ProposalStatus = Literal["open", "published", "declined", "withdrawn"]
STATUSES: tuple[ProposalStatus, ...] = ("open", "published", "declined", "withdrawn")


@dataclass(frozen=True, slots=True)
class Proposal:
    """A proposal; ``content`` is empty in lists, which leave it out."""

    id: str
    agent_id: str
    status: ProposalStatus
    title: str
    note: str
    author_id: str
    author_name: str
    author_type: str
    base_version: int
    revision: int
    content: str
    created_at: str
    updated_at: str
    live_version: int
    decided_by_name: str | None = None
    decided_at: str | None = None
    reason: str | None = None
    published_version: int | None = None

    @property
    def base_moved(self) -> bool:
        """The live Task has moved on since the version the proposal was drafted against."""
        return self.live_version != self.base_version

    @property
    def outcome(self) -> str:
        """The proposal's state in a few words, as its author reads it."""
        if self.status == "published" and self.published_version is not None:
            return f"published as v{self.published_version}"
        if self.status == "declined":
            who = f" by {self.decided_by_name}" if self.decided_by_name else ""
            return f"declined{who}: {self.reason or 'no reason given'}"
        if self.status == "withdrawn":
            return "withdrawn"
        return f"open (revision {self.revision})"


@dataclass(frozen=True, slots=True)
class Published:
    """What a publish answers: the closed proposal and the Task it saved."""

    proposal: Proposal
    task: TaskDoc
