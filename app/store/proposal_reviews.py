"""Proposals in the local store: an operator's hunk decisions and what they last looked at,
and a proposal being drafted (kept through a crash, and while offline until it is sent).

The tables are this feature's own and are made on first use (``CREATE TABLE IF NOT EXISTS``
in the write that needs them), so a store from before them needs no upgrade step.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

TABLES = (
    """CREATE TABLE IF NOT EXISTS proposal_decisions (
    server      TEXT NOT NULL,
    proposal_id TEXT NOT NULL,
    hunk_key    TEXT NOT NULL,
    decision    TEXT NOT NULL,
    text        TEXT NOT NULL,
    decided_at  REAL NOT NULL,
    PRIMARY KEY (server, proposal_id, hunk_key)
)""",
    """CREATE TABLE IF NOT EXISTS proposal_seen (
    server      TEXT NOT NULL,
    proposal_id TEXT NOT NULL,
    revision    INTEGER NOT NULL,
    PRIMARY KEY (server, proposal_id)
)""",
    """CREATE TABLE IF NOT EXISTS proposal_drafts (
    server       TEXT NOT NULL,
    agent_id     TEXT NOT NULL,
    proposal_id  TEXT NOT NULL DEFAULT '',
    text         TEXT NOT NULL,
    base_version INTEGER NOT NULL,
    title        TEXT NOT NULL,
    note         TEXT NOT NULL,
    submit       INTEGER NOT NULL,
    saved_at     REAL NOT NULL,
    PRIMARY KEY (server, agent_id)
)""",
)


@dataclass(frozen=True, slots=True)
class ProposalDraft:
    """A proposal being written: ``submit`` once the person pressed Submit (send it when the
    server is back); ``proposal_id`` set when it revises an open proposal."""

    server: str
    agent_id: str
    proposal_id: str
    text: str
    base_version: int
    title: str
    note: str
    submit: bool


def ensure_tables(conn: sqlite3.Connection) -> None:
    for table in TABLES:
        conn.execute(table)


def put_decision(
    conn: sqlite3.Connection,
    server: str,
    proposal_id: str,
    hunk_key: str,
    decision: str | None,
    text: str,
    now: float,
) -> None:
    ensure_tables(conn)
    if decision is None:
        conn.execute(
            "DELETE FROM proposal_decisions WHERE server = ? AND proposal_id = ? AND hunk_key = ?",
            (server, proposal_id, hunk_key),
        )
        return
    conn.execute(
        "INSERT INTO proposal_decisions (server, proposal_id, hunk_key, decision, text,"
        " decided_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (server, proposal_id, hunk_key)"
        " DO UPDATE SET decision = excluded.decision, text = excluded.text,"
        " decided_at = excluded.decided_at",
        (server, proposal_id, hunk_key, decision, text, now),
    )


def decisions(
    conn: sqlite3.Connection, server: str, proposal_id: str
) -> dict[str, tuple[str, str]]:
    """``{hunk key: (decision, text)}``."""
    if not _exists(conn, "proposal_decisions"):
        return {}
    rows = conn.execute(
        "SELECT hunk_key, decision, text FROM proposal_decisions WHERE server = ? AND"
        " proposal_id = ?",
        (server, proposal_id),
    )
    return {key: (decision, text) for key, decision, text in rows}


def put_seen(conn: sqlite3.Connection, server: str, proposal_id: str, revision: int) -> None:
    ensure_tables(conn)
    conn.execute(
        "INSERT INTO proposal_seen (server, proposal_id, revision) VALUES (?, ?, ?)"
        " ON CONFLICT (server, proposal_id) DO UPDATE SET revision = excluded.revision",
        (server, proposal_id, revision),
    )


def seen(conn: sqlite3.Connection, server: str, proposal_id: str) -> int | None:
    if not _exists(conn, "proposal_seen"):
        return None
    row = conn.execute(
        "SELECT revision FROM proposal_seen WHERE server = ? AND proposal_id = ?",
        (server, proposal_id),
    ).fetchone()
    return int(row[0]) if row else None


def put_draft(conn: sqlite3.Connection, draft: ProposalDraft, now: float) -> None:
    ensure_tables(conn)
    conn.execute(
        "INSERT INTO proposal_drafts (server, agent_id, proposal_id, text, base_version, title,"
        " note, submit, saved_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (server, agent_id) DO UPDATE SET proposal_id = excluded.proposal_id,"
        " text = excluded.text, base_version = excluded.base_version, title = excluded.title,"
        " note = excluded.note, submit = excluded.submit, saved_at = excluded.saved_at",
        (
            draft.server,
            draft.agent_id,
            draft.proposal_id,
            draft.text,
            draft.base_version,
            draft.title,
            draft.note,
            int(draft.submit),
            now,
        ),
    )


_DRAFT_COLUMNS = "server, agent_id, proposal_id, text, base_version, title, note, submit"


def _draft(row: tuple[object, ...]) -> ProposalDraft:
    server, agent_id, proposal_id, text, base, title, note, submit = row
    return ProposalDraft(
        str(server), str(agent_id), str(proposal_id), str(text), int(str(base)), str(title),
        str(note), bool(submit),
    )  # fmt: skip


def get_draft(conn: sqlite3.Connection, server: str, agent_id: str) -> ProposalDraft | None:
    if not _exists(conn, "proposal_drafts"):
        return None
    row = conn.execute(
        f"SELECT {_DRAFT_COLUMNS} FROM proposal_drafts WHERE server = ? AND agent_id = ?",
        (server, agent_id),
    ).fetchone()
    return _draft(row) if row else None


def drafts_to_send(conn: sqlite3.Connection, server: str) -> list[ProposalDraft]:
    if not _exists(conn, "proposal_drafts"):
        return []
    rows = conn.execute(
        f"SELECT {_DRAFT_COLUMNS} FROM proposal_drafts WHERE server = ? AND submit = 1"
        " ORDER BY saved_at",
        (server,),
    )
    return [_draft(r) for r in rows]


def delete_draft_if_text(conn: sqlite3.Connection, server: str, agent_id: str, text: str) -> None:
    if _exists(conn, "proposal_drafts"):
        conn.execute(
            "DELETE FROM proposal_drafts WHERE server = ? AND agent_id = ? AND text = ?",
            (server, agent_id, text),
        )


def _exists(conn: sqlite3.Connection, table: str) -> bool:
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
    ).fetchone()
    return row is not None
