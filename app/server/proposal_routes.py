"""The proposals endpoints (EXTENSION): anyone of the org drafts a Task, an operator publishes.

Who reads proposals: every person of the org (a Task is no secret inside it); an agent's
token lists none and reads none (404, as a missing one). Who writes: any person proposes;
the author alone revises or withdraws; operators alone publish or decline. A publish is a
Task save like any other, made by the operator, in the same transaction that closes the
proposal and records which proposal made the new version (``version_origins``).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from app.core.limits import TASK_MAX_BYTES, utf8_len
from app.server.auth import database
from app.server.callers import Caller
from app.server.database import Transaction, VersionConflictError, utc_now
from app.server.proposal_records import (
    DECLINED,
    MAX_OPEN_PER_AGENT,
    OPEN,
    PUBLISHED,
    STATUSES,
    WITHDRAWN,
    ProposalRecord,
    add_proposal,
    base_text,
    decide_proposal,
    find_proposal,
    open_count,
    proposal_at_revision,
    proposals_of_agent,
    proposals_of_org,
    record_proposal_origin,
    revise_proposal,
)
from app.server.responses import ApiError, JsonResponse
from app.server.routing import ApiRoutes
from app.server.task_routes import task_body
from app.server.version_origins import version_origins

extension_router = ApiRoutes()

TITLE_MAX = 200
NOTE_MAX = 2000
REASON_MAX = 2000


def proposal_body(
    proposal: ProposalRecord, live_version: int, *, with_content: bool = True
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": proposal.id,
        "agent_id": proposal.agent_id,
        "status": proposal.status,
        "title": proposal.title,
        "note": proposal.note,
        "author": {
            "id": proposal.author_id,
            "name": proposal.author_name,
            "type": proposal.author_type,
        },
        "base_version": proposal.base_version,
        "revision": proposal.revision,
    }
    if with_content:
        body["content"] = proposal.content
    body.update(
        created_at=proposal.created_at, updated_at=proposal.updated_at, live_version=live_version
    )
    if proposal.decided_by_name is not None:
        body["decided_by_name"] = proposal.decided_by_name
        body["decided_at"] = proposal.decided_at
    if proposal.reason is not None:
        body["reason"] = proposal.reason
    if proposal.published_version is not None:
        body["published_version"] = proposal.published_version
    return body


def _integer(value: Any) -> int | None:
    """An integer as the API takes one (2.0 is 2; true, 1.5, "1" and null are not)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value if type(value) is int else None


def _live(tx: Transaction, agent_id: str) -> tuple[int, str]:
    task = tx.task(agent_id, with_revisions=False)
    if task is None:
        raise ApiError(404, "no such agent")
    return task.version, task.content


def _visible(tx: Transaction, caller: Caller, proposal_id: str) -> ProposalRecord:
    """The proposal; 404 when there is none, and for an agent, which reads none."""
    found = find_proposal(tx.conn, proposal_id)
    if found is None or caller.type == "agent":
        raise ApiError(404, "no such proposal")
    return found


def _checked_draft(
    tx: Transaction,
    agent_id: str,
    body: dict[str, Any],
    *,
    title_default: str | None = None,
    note_default: str = "",
) -> tuple[str, int, str, str]:
    """(content, base_version, title, note) of a POST or PUT body, or the contract's 422."""
    content = body.get("content")
    if not isinstance(content, str):
        raise ApiError(422, "content must be a string")
    if utf8_len(content) > TASK_MAX_BYTES:
        raise ApiError(422, "write exceeds 256 KB")
    base_version = _integer(body.get("base_version"))
    if base_version is None:
        raise ApiError(422, "base_version must be an integer")
    base = base_text(tx.conn, agent_id, base_version, _live(tx, agent_id))
    if base is None:
        raise ApiError(422, "no such base version")
    title = body.get("title", title_default)
    if not isinstance(title, str) or not 1 <= len(title.strip()) <= TITLE_MAX:
        raise ApiError(422, "title must be 1 to 200 characters")
    note = body.get("note")
    if note is None:  # absent or null: no note (on a revise, the note it had)
        note = note_default
    if not isinstance(note, str) or len(note) > NOTE_MAX:
        raise ApiError(422, "note must be at most 2000 characters")
    if content == base:
        raise ApiError(422, "proposal changes nothing")
    return content, base_version, title.strip(), note


@extension_router.post("/api/agents/{agent_id}/proposals", reads_body=True)
def create_proposal(
    agent_id: str, request: Request, caller: Caller, body: dict[str, Any]
) -> Response:
    """A person's draft of the agent's whole Task against a base version, opened for review."""
    with database(request).write() as tx:
        live_version, _ = _live(tx, agent_id)
        if caller.type == "agent":
            raise ApiError(422, "task is not writable")
        content, base_version, title, note = _checked_draft(tx, agent_id, body)
        if open_count(tx.conn, agent_id) >= MAX_OPEN_PER_AGENT:
            raise ApiError(422, "too many open proposals")
        proposal_id = add_proposal(
            tx.conn,
            agent_id=agent_id,
            author=caller,
            base_version=base_version,
            title=title,
            note=note,
            content=content,
            at=utc_now(),
        )
        created = find_proposal(tx.conn, proposal_id)
        assert created is not None
        return JsonResponse(proposal_body(created, live_version), status_code=201)


@extension_router.get("/api/agents/{agent_id}/proposals")
def list_agent_proposals(agent_id: str, request: Request, caller: Caller) -> Response:
    """The agent's proposals of every status, newest first, without their content."""
    with database(request).read() as tx:
        live_version, _ = _live(tx, agent_id)
        if caller.type == "agent":
            return JsonResponse({"proposals": []})
        rows = proposals_of_agent(tx.conn, agent_id)
    return JsonResponse(
        {"proposals": [proposal_body(p, live_version, with_content=False) for p in rows]}
    )


@extension_router.get("/api/org/proposals")
def list_org_proposals(request: Request, caller: Caller) -> Response:
    """The org's proposals (``status`` narrows them), oldest first, without their content."""
    if not caller.is_operator:
        raise ApiError(422, "operators only")
    # Without ``status``: every status. An empty one is no status the contract names.
    status = request.query_params.get("status")
    if status is not None and status not in STATUSES:
        raise ApiError(422, "status must be open, published, declined or withdrawn")
    with database(request).read() as tx:
        rows = proposals_of_org(tx.conn, status)
        live = {a.id: a.task_version for a in tx.agents()}
    return JsonResponse(
        {"proposals": [proposal_body(p, live.get(p.agent_id, 0), with_content=False) for p in rows]}
    )


@extension_router.get("/api/proposals/{proposal_id}")
def get_proposal(proposal_id: str, request: Request, caller: Caller) -> Response:
    """The proposal with its newest revision's content, or with ``revision=N`` that one's."""
    asked = request.query_params.get("revision")
    with database(request).read() as tx:
        proposal = _visible(tx, caller, proposal_id)
        if asked is not None:
            # A revision is a positive 64-bit integer; anything else names none.
            plain = asked.isascii() and asked.isdigit() and len(asked) <= 18
            number = int(asked) if plain else None
            at_revision = (
                None if number is None else proposal_at_revision(tx.conn, proposal, number)
            )
            if at_revision is None:
                raise ApiError(404, "no such revision")
            proposal = at_revision
        agent = tx.agent(proposal.agent_id)
    return JsonResponse(proposal_body(proposal, agent.task_version if agent else 0))


@extension_router.put("/api/proposals/{proposal_id}", reads_body=True)
def revise(proposal_id: str, request: Request, caller: Caller, body: dict[str, Any]) -> Response:
    """The author's new revision of an open proposal (a body like POST's; title and note may
    be left out to keep them). A body that changes nothing at all adds no revision."""
    with database(request).write() as tx:
        proposal = _visible(tx, caller, proposal_id)
        if caller.id != proposal.author_id:
            raise ApiError(422, "not your proposal")
        if proposal.status != OPEN:
            raise ApiError(409, "proposal is not open")
        content, base_version, title, note = _checked_draft(
            tx, proposal.agent_id, body, title_default=proposal.title, note_default=proposal.note
        )
        same = (content, base_version, title, note) == (
            proposal.content,
            proposal.base_version,
            proposal.title,
            proposal.note,
        )
        if not same:
            revise_proposal(
                tx.conn,
                proposal,
                base_version=base_version,
                title=title,
                note=note,
                content=content,
                at=utc_now(),
                by=caller,
            )
        revised = find_proposal(tx.conn, proposal_id)
        live_version, _ = _live(tx, proposal.agent_id)
    assert revised is not None
    return JsonResponse(proposal_body(revised, live_version))


def _open_for_operator(tx: Transaction, caller: Caller, proposal_id: str) -> ProposalRecord:
    proposal = _visible(tx, caller, proposal_id)
    if not caller.is_operator:
        raise ApiError(422, "task is not writable")
    if proposal.status != OPEN:
        raise ApiError(409, "proposal is not open")
    return proposal


@extension_router.post("/api/proposals/{proposal_id}/publish", reads_body=True)
def publish(proposal_id: str, request: Request, caller: Caller, body: dict[str, Any]) -> Response:
    """The text the operator accepted saved as the Task (a save like any other, with
    ``expected_version``), the proposal closed as published in the same transaction."""
    with database(request).write() as tx:
        proposal = _open_for_operator(tx, caller, proposal_id)
        expected = _integer(body.get("expected_version"))
        if expected is None:
            raise ApiError(422, "expected_version must be an integer")
        content = body.get("content")
        if not isinstance(content, str):
            raise ApiError(422, "content must be a string")
        if utf8_len(content) > TASK_MAX_BYTES:
            raise ApiError(422, "write exceeds 256 KB")
        live_version, live_text = _live(tx, proposal.agent_id)
        if expected != live_version:
            raise ApiError(409, "version conflict", extra={"version": live_version})
        if content == live_text:
            raise ApiError(422, "proposal changes nothing")
        try:
            tx.save_task(proposal.agent_id, content, expected_version=expected, by=caller)
        except VersionConflictError as conflict:  # not reached: the write lock is held
            raise ApiError(
                409, "version conflict", extra={"version": conflict.live_version}
            ) from None
        version = live_version + 1
        record_proposal_origin(
            tx.conn, proposal.agent_id, version, proposal.id, proposal.author_name
        )
        decide_proposal(
            tx.conn, proposal, PUBLISHED, at=utc_now(), by=caller, published_version=version
        )
        published = find_proposal(tx.conn, proposal_id)
        task = tx.task(proposal.agent_id)
        org_id = tx.meta("org_id")
        origins = version_origins(tx.conn, proposal.agent_id)
    assert published is not None and task is not None
    return JsonResponse(
        {
            "proposal": proposal_body(published, version),
            "task": task_body(org_id, task, origins=origins),
        }
    )


@extension_router.post("/api/proposals/{proposal_id}/decline", reads_body=True)
def decline(proposal_id: str, request: Request, caller: Caller, body: dict[str, Any]) -> Response:
    """An operator closes an open proposal with a reason its author sees."""
    with database(request).write() as tx:
        proposal = _open_for_operator(tx, caller, proposal_id)
        reason = body.get("reason")
        if not isinstance(reason, str) or not 1 <= len(reason.strip()) <= REASON_MAX:
            raise ApiError(422, "reason must be 1 to 2000 characters")
        decide_proposal(tx.conn, proposal, DECLINED, at=utc_now(), by=caller, reason=reason.strip())
        declined = find_proposal(tx.conn, proposal_id)
        live_version, _ = _live(tx, proposal.agent_id)
    assert declined is not None
    return JsonResponse(proposal_body(declined, live_version))


@extension_router.post("/api/proposals/{proposal_id}/withdraw")
def withdraw(proposal_id: str, request: Request, caller: Caller) -> Response:
    """The author takes back an open proposal."""
    with database(request).write() as tx:
        proposal = _visible(tx, caller, proposal_id)
        if caller.id != proposal.author_id:
            raise ApiError(422, "not your proposal")
        if proposal.status != OPEN:
            raise ApiError(409, "proposal is not open")
        decide_proposal(tx.conn, proposal, WITHDRAWN, at=utc_now(), by=caller)
        withdrawn = find_proposal(tx.conn, proposal_id)
        live_version, _ = _live(tx, proposal.agent_id)
    assert withdrawn is not None
    return JsonResponse(proposal_body(withdrawn, live_version))
