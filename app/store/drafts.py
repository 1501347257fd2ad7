"""Drafts: the operator's unsaved edits, one per server and agent, last writer wins."""

from __future__ import annotations

import sqlite3

from app.core.models import sha256_hex
from app.store.records import Draft, utc_from_seconds

_COLUMNS = "server, agent_id, agent_name, text, base_version, saved_at"


def _draft(row: tuple) -> Draft:
    server, agent_id, agent_name, text, base_version, saved_at = row
    return Draft(server, agent_id, agent_name, text, base_version, utc_from_seconds(saved_at))


def put_draft(
    conn: sqlite3.Connection,
    server: str,
    agent_id: str,
    text: str,
    base_version: int | None,
    agent_name: str,
    now: float,
) -> Draft:
    conn.execute(
        "INSERT INTO drafts (server, agent_id, agent_name, text, text_hash, base_version,"
        " saved_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (server, agent_id) DO UPDATE SET agent_name = excluded.agent_name,"
        " text = excluded.text, text_hash = excluded.text_hash,"
        " base_version = excluded.base_version, saved_at = excluded.saved_at",
        (server, agent_id, agent_name, text, sha256_hex(text), base_version, now),
    )
    return Draft(server, agent_id, agent_name, text, base_version, utc_from_seconds(now))


def get_draft(conn: sqlite3.Connection, server: str, agent_id: str) -> Draft | None:
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM drafts WHERE server = ? AND agent_id = ?", (server, agent_id)
    ).fetchone()
    return _draft(row) if row else None


def list_drafts(conn: sqlite3.Connection, server: str | None) -> list[Draft]:
    if server is None:
        rows = conn.execute(f"SELECT {_COLUMNS} FROM drafts ORDER BY saved_at DESC").fetchall()
    else:
        rows = conn.execute(
            f"SELECT {_COLUMNS} FROM drafts WHERE server = ? ORDER BY saved_at DESC", (server,)
        ).fetchall()
    return [_draft(r) for r in rows]


def delete_draft_if_text(
    conn: sqlite3.Connection, server: str, agent_id: str, confirmed_text: str
) -> bool:
    # The hash narrows, the text comparison decides: a draft typed after the save was sent
    # differs from the confirmed bytes and must stay.
    cur = conn.execute(
        "DELETE FROM drafts WHERE server = ? AND agent_id = ? AND text_hash = ? AND text = ?",
        (server, agent_id, sha256_hex(confirmed_text), confirmed_text),
    )
    return cur.rowcount > 0


def delete_draft(conn: sqlite3.Connection, server: str, agent_id: str) -> bool:
    cur = conn.execute("DELETE FROM drafts WHERE server = ? AND agent_id = ?", (server, agent_id))
    return cur.rowcount > 0
