"""Each live Task's shape findings, kept in the database by the Task's hash.

The shape check parses the Task's Markdown, about a millisecond a Task: at 5,000 agents a
fleet read that worked them all out after a start would take seconds. The findings depend
on the Task's text alone, so a row keyed by its hash can never be stale for that text; it
also names the version of the check that found it (``SHAPE_CHECK``), and a row of another
version is simply not read. Rows are written when the database is seeded and, for Tasks
saved since, by the fleet read that first meets them; rows no live Task has are dropped then.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from app.core.shape_codes import task_shape_codes
from app.server.database import Transaction

SHAPE_CHECK = "1"
"""The version of ``task_shape_codes``: raise it whenever the findings of a text change."""

Shapes = dict[str, tuple[str, ...]]
"""Shape codes by Task hash."""


def kept_shapes(tx: Transaction) -> Shapes:
    """Every kept row of this version of the check that a live Task has."""
    rows = tx.conn.execute(
        "SELECT s.task_hash, s.codes FROM task_shapes s"
        " WHERE s.checker = ? AND s.task_hash IN (SELECT task_hash FROM agents)",
        (SHAPE_CHECK,),
    )
    return {task_hash: tuple(json.loads(codes)) for task_hash, codes in rows}


def keep_shapes(tx: Transaction, shapes: Shapes) -> None:
    """Keep the findings given, and drop the rows no live Task has any longer."""
    if not shapes:
        return
    tx.conn.executemany(
        "INSERT INTO task_shapes (task_hash, checker, codes) VALUES (?, ?, ?)"
        " ON CONFLICT (task_hash) DO UPDATE SET checker = excluded.checker,"
        " codes = excluded.codes",
        [(h, SHAPE_CHECK, json.dumps(list(codes))) for h, codes in shapes.items()],
    )
    tx.conn.execute("DELETE FROM task_shapes WHERE task_hash NOT IN (SELECT task_hash FROM agents)")


def shapes_of(texts: Iterable[tuple[str, str]]) -> Shapes:
    """The findings of each (hash, text), each hash checked once."""
    found: Shapes = {}
    for task_hash, text in texts:
        if task_hash not in found:
            found[task_hash] = task_shape_codes(text)
    return found


def fill(tx: Transaction) -> None:
    """Keep the findings of every live Task that has none kept (after seeding)."""
    rows = tx.conn.execute(
        "SELECT a.task_hash, a.task FROM agents a WHERE a.task_hash NOT IN"
        " (SELECT task_hash FROM task_shapes WHERE checker = ?)",
        (SHAPE_CHECK,),
    ).fetchall()
    keep_shapes(tx, shapes_of((task_hash, text) for task_hash, text in rows))
