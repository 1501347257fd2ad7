"""Proposals as the client reads them from their JSON bodies (API.md "Proposals")."""

from __future__ import annotations

from app.core import model_json
from app.core.model_json import Fields
from app.core.proposal_models import STATUSES, Proposal, ProposalStatus, Published

__all__ = ["STATUSES", "Proposal", "ProposalStatus", "Published", "proposal_from", "proposals_from"]


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
