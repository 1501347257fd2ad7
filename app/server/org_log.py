"""The org's change log: one row per change, written in the change's own transaction.

One table serves two readers: the audit (``GET /api/org/audit``) lists its rows, and the live
event stream (``GET /api/events``) tails it, its row id being the event id a client resumes
from with ``Last-Event-ID``. Because a row is written in the same transaction as the change it
records, a change and its row commit together or not at all, on any number of processes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

ORG_LOG_SCHEMA = """
CREATE TABLE IF NOT EXISTS org_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL,
    kind TEXT NOT NULL,
    by_name TEXT NOT NULL,
    agent_ids TEXT NOT NULL,
    data TEXT NOT NULL
);
"""
"""``agent_ids`` a JSON list of the agents the change touches; ``data`` a JSON object of the
kind's own fields (``version``, ``display_path``, ``proposal_id``, ``change_set_id``, …)."""

KINDS = frozenset(
    {
        "task_saved",
        "task_restored",
        "proposal_opened",
        "proposal_revised",
        "proposal_published",
        "proposal_declined",
        "proposal_withdrawn",
        "note_created",
        "note_saved",
        "note_deleted",
        "change_set",
        "change_set_reverted",
    }
)
"""Every kind a row may have: the audit's kinds, and ``proposal_revised`` for the live events."""


class Executes(Protocol):
    """The one thing the log needs of a connection."""

    def execute(self, sql: str, parameters: Any = ..., /) -> Any: ...


@dataclass(frozen=True, slots=True)
class OrgEvent:
    """One row of the log, decoded."""

    id: int
    at: str
    kind: str
    by_name: str
    agent_ids: tuple[str, ...]
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class EncodedAgentIds:
    """A JSON list of agent ids as the log keeps it, encoded already: a note save hands on
    the list kept from an earlier save instead of decoding and encoding a thousand ids."""

    text: str


def record_event(
    conn: Executes,
    kind: str,
    *,
    at: str,
    by_name: str,
    agent_ids: list[str] | EncodedAgentIds,
    **data: Any,
) -> None:
    """Add one row; call inside the write transaction of the change it records."""
    if kind not in KINDS:
        raise ValueError(f"unknown org event kind {kind!r}")
    ids = agent_ids.text if isinstance(agent_ids, EncodedAgentIds) else json.dumps(agent_ids)
    conn.execute(
        "INSERT INTO org_events (at, kind, by_name, agent_ids, data) VALUES (?, ?, ?, ?, ?)",
        (at, kind, by_name, ids, json.dumps(data, sort_keys=True)),
    )


def events_after(conn: Executes, after_id: int, *, limit: int = 1000) -> list[OrgEvent]:
    """Rows with an id above ``after_id``, oldest first (what a live stream sends next)."""
    rows = conn.execute(
        "SELECT id, at, kind, by_name, agent_ids, data FROM org_events WHERE id > ?"
        " ORDER BY id LIMIT ?",
        (after_id, limit),
    )
    return [_event(row) for row in rows]


def newest_events(conn: Executes, *, limit: int) -> list[OrgEvent]:
    """The newest rows first (what the audit lists before its filters)."""
    rows = conn.execute(
        "SELECT id, at, kind, by_name, agent_ids, data FROM org_events ORDER BY id DESC LIMIT ?",
        (limit,),
    )
    return [_event(row) for row in rows]


def _event(row: Any) -> OrgEvent:
    event_id, at, kind, by_name, agent_ids, data = row
    return OrgEvent(
        int(event_id), at, kind, by_name, tuple(json.loads(agent_ids)), json.loads(data)
    )
