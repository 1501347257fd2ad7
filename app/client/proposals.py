"""Proposals as the client reads them (API.md "Proposals"), and their JSON bodies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.core import model_json
from app.core.model_json import Fields
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


def proposal_from(data: object) -> Proposal:
    return _proposal(Fields(data, "the proposal"))


def _proposal(f: Fields) -> Proposal:
    author = f.nested("author", "the proposal's author")
    return Proposal(
        id=f.text("id"),
        agent_id=f.text("agent_id"),
        status=f.choice("status", STATUSES),
        title=f.text("title"),
        note=f.optional_text("note") or "",
        author_id=author.text("id"),
        author_name=author.text("name"),
        author_type=author.text("type"),
        base_version=f.whole("base_version"),
        revision=f.whole("revision"),
        content=f.optional_text("content") or "",
        created_at=f.text("created_at"),
        updated_at=f.text("updated_at"),
        live_version=f.whole("live_version"),
        decided_by_name=f.optional_text("decided_by_name"),
        decided_at=f.optional_text("decided_at"),
        reason=f.optional_text("reason"),
        published_version=f.whole("published_version") if f.has("published_version") else None,
    )


def proposals_from(data: object) -> list[Proposal]:
    return [
        _proposal(item) for item in Fields(data, "the answer").objects("proposals", "a proposal")
    ]


def published_from(data: object) -> Published:
    f = Fields(data, "the answer")
    proposal = _proposal(f.nested("proposal", "the proposal"))
    task = model_json.task_doc(f.nested("task", "the Task"), agent_id=proposal.agent_id, etag=None)
    return Published(proposal, task)
