"""Proposals as stored: their rows, their revisions and the versions they made (queries only).

Every function takes the connection of a ``Transaction`` (``tx.conn``); the callers in
``proposal_routes`` decide who may do what. The SQL is portable (``?`` placeholders, ``ON
CONFLICT … DO UPDATE``), so the same text runs on the PostgreSQL backend.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from typing import Any

from app.server.callers import Caller
from app.server.org_log import Executes, record_event

OPEN, PUBLISHED, DECLINED, WITHDRAWN = "open", "published", "declined", "withdrawn"
STATUSES = (OPEN, PUBLISHED, DECLINED, WITHDRAWN)
MAX_OPEN_PER_AGENT = 20

_COLUMNS = (
    "id, agent_id, status, title, note, author_id, author_name, author_type, base_version,"
    " revision, content, created_at, updated_at, decided_by_name, decided_at, reason,"
    " published_version"
)
_COLUMNS_WITHOUT_CONTENT = _COLUMNS.replace(" content,", " '' AS content,")


@dataclass(frozen=True, slots=True)
class ProposalRecord:
    """One proposal as its newest revision has it (or, read with a revision, as that one)."""

    id: str
    agent_id: str
    status: str
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
    decided_by_name: str | None = None
    decided_at: str | None = None
    reason: str | None = None
    published_version: int | None = None


def new_proposal_id() -> str:
    return "prop_" + secrets.token_hex(8)


def _record(row: Any) -> ProposalRecord:
    return ProposalRecord(*row)


def find_proposal(conn: Executes, proposal_id: str) -> ProposalRecord | None:
    row = conn.execute(f"SELECT {_COLUMNS} FROM proposals WHERE id = ?", (proposal_id,)).fetchone()
    return _record(row) if row else None


def proposal_at_revision(
    conn: Executes, proposal: ProposalRecord, revision: int
) -> ProposalRecord | None:
    """The proposal with that revision's content, base, title and note; None when it has none."""
    row = conn.execute(
        "SELECT base_version, title, note, content FROM proposal_revisions"
        " WHERE proposal_id = ? AND revision = ?",
        (proposal.id, revision),
    ).fetchone()
    if row is None:
        return None
    base_version, title, note, content = row
    return replace(
        proposal,
        revision=revision,
        base_version=int(base_version),
        title=title,
        note=note,
        content=content,
    )


def proposals_of_agent(conn: Executes, agent_id: str) -> list[ProposalRecord]:
    """Every proposal for the agent, newest first, their content left empty."""
    rows = conn.execute(
        f"SELECT {_COLUMNS_WITHOUT_CONTENT} FROM proposals WHERE agent_id = ?"
        " ORDER BY created_at DESC, id DESC",
        (agent_id,),
    )
    return [_record(r) for r in rows]


def proposals_of_org(conn: Executes, status: str | None) -> list[ProposalRecord]:
    """Every proposal of the org (with ``status``, only those), oldest first, content empty."""
    where, args = ("WHERE status = ?", (status,)) if status else ("", ())
    rows = conn.execute(
        f"SELECT {_COLUMNS_WITHOUT_CONTENT} FROM proposals {where} ORDER BY created_at, id", args
    )
    return [_record(r) for r in rows]


def open_count(conn: Executes, agent_id: str) -> int:
    row = conn.execute(
        "SELECT COUNT(*) FROM proposals WHERE agent_id = ? AND status = ?", (agent_id, OPEN)
    ).fetchone()
    return int(row[0])


def add_proposal(
    conn: Executes,
    *,
    agent_id: str,
    author: Caller,
    base_version: int,
    title: str,
    note: str,
    content: str,
    at: str,
) -> str:
    """A new open proposal at revision 1; records ``proposal_opened``."""
    proposal_id = new_proposal_id()
    conn.execute(
        "INSERT INTO proposals (id, agent_id, status, title, note, author_id, author_name,"
        " author_type, base_version, revision, content, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)",
        (
            proposal_id,
            agent_id,
            OPEN,
            title,
            note,
            author.id,
            author.name,
            author.type,
            base_version,
            content,
            at,
            at,
        ),
    )
    _add_revision(conn, proposal_id, 1, base_version, title, note, content, at)
    record_event(
        conn,
        "proposal_opened",
        at=at,
        by_name=author.name,
        agent_ids=[agent_id],
        proposal_id=proposal_id,
        status=OPEN,
    )
    return proposal_id


def revise_proposal(
    conn: Executes,
    proposal: ProposalRecord,
    *,
    base_version: int,
    title: str,
    note: str,
    content: str,
    at: str,
    by: Caller,
) -> None:
    """The next revision of an open proposal; records ``proposal_revised``."""
    revision = proposal.revision + 1
    conn.execute(
        "UPDATE proposals SET base_version = ?, title = ?, note = ?, content = ?, revision = ?,"
        " updated_at = ? WHERE id = ?",
        (base_version, title, note, content, revision, at, proposal.id),
    )
    _add_revision(conn, proposal.id, revision, base_version, title, note, content, at)
    record_event(
        conn,
        "proposal_revised",
        at=at,
        by_name=by.name,
        agent_ids=[proposal.agent_id],
        proposal_id=proposal.id,
        status=OPEN,
        revision=revision,
    )


def decide_proposal(
    conn: Executes,
    proposal: ProposalRecord,
    status: str,
    *,
    at: str,
    by: Caller,
    reason: str | None = None,
    published_version: int | None = None,
) -> None:
    """Close an open proposal as published, declined or withdrawn; records its event."""
    conn.execute(
        "UPDATE proposals SET status = ?, decided_by_name = ?, decided_at = ?, reason = ?,"
        " published_version = ?, updated_at = ? WHERE id = ?",
        (status, by.name, at, reason, published_version, at, proposal.id),
    )
    data: dict[str, Any] = {"proposal_id": proposal.id, "status": status}
    if published_version is not None:
        data["version"] = published_version
    record_event(
        conn, f"proposal_{status}", at=at, by_name=by.name, agent_ids=[proposal.agent_id], **data
    )


def _add_revision(
    conn: Executes,
    proposal_id: str,
    revision: int,
    base_version: int,
    title: str,
    note: str,
    content: str,
    at: str,
) -> None:
    conn.execute(
        "INSERT INTO proposal_revisions (proposal_id, revision, base_version, title, note,"
        " content, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (proposal_id, revision, base_version, title, note, content, at),
    )


def record_proposal_origin(
    conn: Executes, agent_id: str, version: int, proposal_id: str, author_name: str
) -> None:
    """Version ``version`` of the agent's Task was published from this proposal."""
    conn.execute(
        "INSERT INTO version_origins (agent_id, version, proposal_id, proposal_author_name)"
        " VALUES (?, ?, ?, ?) ON CONFLICT (agent_id, version) DO UPDATE SET"
        " proposal_id = excluded.proposal_id,"
        " proposal_author_name = excluded.proposal_author_name",
        (agent_id, version, proposal_id, author_name),
    )


def base_text(conn: Executes, agent_id: str, version: int, live: tuple[int, str]) -> str | None:
    """The agent's Task text at ``version``: the live one or a kept revision; None otherwise."""
    live_version, live_text = live
    if version == live_version:
        return live_text
    if not 1 <= version < 2**63:  # no version is out of SQLite's range (nor may it be sent)
        return None
    row = conn.execute(
        "SELECT content_text FROM task_revisions WHERE agent_id = ? AND version = ?",
        (agent_id, version),
    ).fetchone()
    return str(row[0]) if row else None
