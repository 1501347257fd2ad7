"""The offline cache: what was last seen on each server, with when it was fetched."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from typing import TypeVar

from app.store import cache_codec
from app.store.records import Cached, utc_from_seconds

T = TypeVar("T")

# Kinds of cached value; `key` tells values of one kind apart ("" for the single ones).
ME = "me"
AGENTS = "agents"
GUILDS = "guilds"
TASK = "task"  # key: agent id
NOTE = "note"  # key: display path; body NULL records "the server said it doesn't exist"
EMBED_STATUS = "embed_status"  # key: guild id ("" for the whole org)


def put(
    conn: sqlite3.Connection, server: str, kind: str, key: str, body: bytes | None, now: float
) -> None:
    conn.execute(
        "INSERT OR REPLACE INTO cache (server, kind, key, body, fetched_at) VALUES (?, ?, ?, ?, ?)",
        (server, kind, key, body, now),
    )


def put_many(
    conn: sqlite3.Connection,
    server: str,
    kind: str,
    rows: Iterable[tuple[str, bytes | None]],
    now: float,
) -> None:
    conn.executemany(
        "INSERT OR REPLACE INTO cache (server, kind, key, body, fetched_at) VALUES (?, ?, ?, ?, ?)",
        [(server, kind, key, body, now) for key, body in rows],
    )


def get_row(
    conn: sqlite3.Connection, server: str, kind: str, key: str
) -> tuple[bytes | None, float] | None:
    row = conn.execute(
        "SELECT body, fetched_at FROM cache WHERE server = ? AND kind = ? AND key = ?",
        (server, kind, key),
    ).fetchone()
    return (row[0], row[1]) if row else None


def get(
    conn: sqlite3.Connection, server: str, kind: str, key: str, build: Callable[[object], T]
) -> Cached[T] | None:
    row = get_row(conn, server, kind, key)
    if row is None or row[0] is None:
        return None
    try:
        value = cache_codec.decode(row[0], build)
    except ValueError:
        return None  # written by another version: a miss, refetched when online
    return Cached(value, utc_from_seconds(row[1]))


def clear_server(conn: sqlite3.Connection, server: str) -> None:
    conn.execute("DELETE FROM cache WHERE server = ?", (server,))
