"""Local history: texts the operator replaced by choice, kept to browse and copy from.

Retention: the newest HISTORY_KEEP entries per agent are always kept; an older entry is
dropped only once it is also older than HISTORY_MIN_AGE_DAYS. So nothing replaced in the
last 30 days is ever lost, and a quiet agent's list stays bounded at 200.
"""

from __future__ import annotations

import sqlite3

from app.core.models import sha256_hex
from app.store.records import HistoryEntry, utc_from_seconds

HISTORY_KEEP = 200
HISTORY_MIN_AGE_DAYS = 30
_MIN_AGE_SECONDS = HISTORY_MIN_AGE_DAYS * 24 * 3600

_COLUMNS = "id, server, agent_id, agent_name, text, reason, base_version, created_at"
_NEWEST_FIRST = "ORDER BY created_at DESC, id DESC"


def _entry(row: tuple) -> HistoryEntry:
    id_, server, agent_id, agent_name, text, reason, base_version, created_at = row
    return HistoryEntry(
        id_, server, agent_id, agent_name, text, reason, base_version, utc_from_seconds(created_at)
    )


def add_entry(
    conn: sqlite3.Connection,
    server: str,
    agent_id: str,
    text: str,
    reason: str,
    base_version: int | None,
    agent_name: str,
    now: float,
) -> HistoryEntry:
    """Add one entry (or return the newest one when it holds the same text) and prune."""
    text_hash = sha256_hex(text)
    newest = conn.execute(
        f"SELECT {_COLUMNS} FROM history WHERE server = ? AND agent_id = ? {_NEWEST_FIRST} LIMIT 1",
        (server, agent_id),
    ).fetchone()
    if newest is not None and newest[4] == text:
        return _entry(newest)  # the same text twice in a row adds nothing to recover
    cur = conn.execute(
        "INSERT INTO history (server, agent_id, agent_name, text, text_hash, reason,"
        " base_version, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (server, agent_id, agent_name, text, text_hash, reason, base_version, now),
    )
    entry_id = cur.lastrowid
    assert entry_id is not None
    conn.execute(
        "DELETE FROM history WHERE server = ? AND agent_id = ? AND created_at < ? AND id NOT IN"
        f" (SELECT id FROM history WHERE server = ? AND agent_id = ? {_NEWEST_FIRST} LIMIT ?)",
        (server, agent_id, now - _MIN_AGE_SECONDS, server, agent_id, HISTORY_KEEP),
    )
    return HistoryEntry(
        entry_id,
        server,
        agent_id,
        agent_name,
        text,
        reason,
        base_version,
        utc_from_seconds(now),
    )


def list_entries(
    conn: sqlite3.Connection, server: str, agent_id: str, limit: int | None
) -> list[HistoryEntry]:
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM history WHERE server = ? AND agent_id = ? {_NEWEST_FIRST} LIMIT ?",
        (server, agent_id, -1 if limit is None else limit),
    ).fetchall()
    return [_entry(r) for r in rows]
