"""Who has which Task open, or is editing it: the presence table's queries.

A person says so with ``POST /api/presence`` while a Task is open (the app every 20 s);
their row lapses ``PRESENCE_LAPSE_S`` after the last call. Presence notifies, it never
locks: nothing refuses a save because someone else is editing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.server.callers import Caller
    from app.server.database import Transaction

PRESENCE_LAPSE_S = 60


@dataclass(frozen=True, slots=True)
class Presence:
    agent_id: str
    person_id: str
    name: str
    editing: bool
    since: str  # when this person began looking (or editing), ISO 8601 UTC


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def lapse_cutoff(now: datetime | None = None) -> str:
    """Rows last seen before this time have lapsed."""
    return _iso((now or datetime.now(UTC)) - timedelta(seconds=PRESENCE_LAPSE_S))


def record_presence(tx: Transaction, agent_id: str, caller: Caller, *, editing: bool) -> None:
    """The caller is looking at (``editing`` False) or editing the agent's Task now; ``since``
    stays while the row is fresh and says the same, else starts again."""
    now = datetime.now(UTC)
    at, cutoff = _iso(now), lapse_cutoff(now)
    tx.conn.execute(
        "INSERT INTO presence (agent_id, person_id, name, editing, since, seen_at)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (agent_id, person_id) DO UPDATE SET"
        " name = excluded.name, editing = excluded.editing,"
        " since = CASE WHEN presence.editing = excluded.editing AND presence.seen_at >= ?"
        " THEN presence.since ELSE excluded.since END, seen_at = excluded.seen_at",
        (agent_id, caller.id, caller.name, 1 if editing else 0, at, at, cutoff),
    )
    # Lapsed rows go when anyone calls: the table stays the size of who is there.
    tx.conn.execute("DELETE FROM presence WHERE seen_at < ?", (cutoff,))


def present(tx: Transaction) -> list[Presence]:
    """Everyone whose presence has not lapsed, by agent then person."""
    rows = tx.conn.execute(
        "SELECT agent_id, person_id, name, editing, since FROM presence WHERE seen_at >= ?"
        " ORDER BY agent_id, person_id",
        (lapse_cutoff(),),
    )
    return [Presence(r[0], r[1], r[2], bool(r[3]), r[4]) for r in rows]
