"""The local store's tables, and the one place that creates or upgrades them."""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 1

# Times are Unix seconds (REAL, UTC). Texts are stored whole: a draft is the operator's
# unsaved work and must come back byte for byte. text_hash lets equality checks (remove a
# draft only when the confirmed bytes match, skip a repeated history entry) use an index-
# sized value first.
_TABLES = """
CREATE TABLE IF NOT EXISTS drafts (
    server       TEXT NOT NULL,
    agent_id     TEXT NOT NULL,
    agent_name   TEXT NOT NULL DEFAULT '',
    text         TEXT NOT NULL,
    text_hash    TEXT NOT NULL,
    base_version INTEGER,
    saved_at     REAL NOT NULL,
    PRIMARY KEY (server, agent_id)
);
CREATE TABLE IF NOT EXISTS history (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    server       TEXT NOT NULL,
    agent_id     TEXT NOT NULL,
    agent_name   TEXT NOT NULL DEFAULT '',
    text         TEXT NOT NULL,
    text_hash    TEXT NOT NULL,
    reason       TEXT NOT NULL,
    base_version INTEGER,
    created_at   REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS history_by_agent ON history (server, agent_id, created_at, id);
CREATE TABLE IF NOT EXISTS cache (
    server     TEXT NOT NULL,
    kind       TEXT NOT NULL,
    key        TEXT NOT NULL,
    body       BLOB,
    fetched_at REAL NOT NULL,
    PRIMARY KEY (server, kind, key)
);
"""


class SchemaTooNewError(Exception):
    """The file was written by a newer Taskdesk whose tables this one does not know."""


def ensure_schema(conn: sqlite3.Connection) -> None:
    """Create the tables on first use; refuse a store made by a newer version."""
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    if version > SCHEMA_VERSION:
        raise SchemaTooNewError(version)
    if version == SCHEMA_VERSION:
        return
    # One script, one transaction: two windows starting at once both see version 0, and
    # IF NOT EXISTS makes the second run harmless.
    try:
        conn.executescript(
            f"BEGIN IMMEDIATE;{_TABLES}PRAGMA user_version = {SCHEMA_VERSION};COMMIT;"
        )
    except BaseException:
        if conn.in_transaction:
            conn.rollback()
        raise
