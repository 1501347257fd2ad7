"""Change sets as the server keeps them: many Tasks saved, and reverted, as one unit.

A change set is one write transaction: every expected version is checked before anything is
written, so a conflict anywhere saves nothing. Each version it makes is named in
``version_origins`` (the Task GET shows ``change_set: {id, title}`` on it), the text before
each change is kept so a revert can put it back, and one ``change_set`` (or
``change_set_reverted``) row goes into the org's change log with every agent and version.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.server.callers import Caller
from app.server.database import Transaction, VersionConflictError, utc_now
from app.server.org_log import record_event

EDITED_SINCE = "edited since"
"""Why a revert leaves a Task alone: someone saved it after the change set."""


@dataclass(frozen=True, slots=True)
class PlannedChange:
    """One Task of a change set as asked: its new text against the version it was made on."""

    agent_id: str
    expected_version: int
    content: str


@dataclass(frozen=True, slots=True)
class SavedChange:
    """One Task a change set saved: the version it made, the text before and after."""

    agent_id: str
    version: int
    content_before: str
    content: str


@dataclass(frozen=True, slots=True)
class ChangeSetRecord:
    id: str
    title: str
    author_name: str
    created_at: str
    reverts_id: str | None
    changes: tuple[SavedChange, ...]


class ChangeSetConflictError(Exception):
    """Some expected versions are not live: ``conflicts`` pairs each agent with its live one."""

    def __init__(self, conflicts: list[tuple[str, int]]) -> None:
        super().__init__(f"{len(conflicts)} Tasks moved")
        self.conflicts = conflicts


def new_change_set_id() -> str:
    return f"cs_{secrets.token_hex(8)}"


def _next_serial(tx: Transaction) -> int:
    row = tx.conn.execute("SELECT MAX(serial) FROM change_sets").fetchone()
    return int(row[0] or 0) + 1


def apply_change_set(
    tx: Transaction,
    title: str,
    changes: Sequence[PlannedChange],
    *,
    by: Caller,
    reverts: ChangeSetRecord | None = None,
) -> ChangeSetRecord:
    """Save every change in ``tx`` or none: ChangeSetConflictError before anything is written.

    A change whose text equals the live one makes no version and is left out.
    """
    live = {c.agent_id: tx.task(c.agent_id, with_revisions=False) for c in changes}
    conflicts = []
    for change in changes:
        task = live[change.agent_id]
        if task is None:
            raise KeyError(change.agent_id)
        if task.version != change.expected_version:
            conflicts.append((change.agent_id, task.version))
    if conflicts:
        raise ChangeSetConflictError(conflicts)
    set_id, when = new_change_set_id(), utc_now()
    tx.conn.execute(
        "INSERT INTO change_sets (id, serial, title, author_id, author_name, created_at,"
        " reverts_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (set_id, _next_serial(tx), title, by.id, by.name, when, reverts.id if reverts else None),
    )
    saved: list[SavedChange] = []
    for change in changes:
        before = live[change.agent_id]
        assert before is not None
        try:
            made = tx.save_task(
                change.agent_id,
                change.content,
                expected_version=change.expected_version,
                by=by,
                at=when,
                event=None,  # one row for the whole set, below
            )
        except VersionConflictError as moved:  # the same Task twice: refused before this
            raise ChangeSetConflictError([(change.agent_id, moved.live_version)]) from None
        if not made:
            continue
        version = before.version + 1
        saved.append(SavedChange(change.agent_id, version, before.content, change.content))
        tx.conn.execute(
            "INSERT INTO change_set_changes (change_set_id, position, agent_id, version,"
            " content_before, content) VALUES (?, ?, ?, ?, ?, ?)",
            (set_id, len(saved), change.agent_id, version, before.content, change.content),
        )
        tx.conn.execute(
            "INSERT INTO version_origins (agent_id, version, change_set_id, change_set_title)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (agent_id, version) DO UPDATE SET"
            " change_set_id = excluded.change_set_id,"
            " change_set_title = excluded.change_set_title",
            (change.agent_id, version, set_id, title),
        )
    data: dict[str, Any] = {
        "change_set_id": set_id,
        "title": title,
        "versions": [{"agent_id": c.agent_id, "version": c.version} for c in saved],
    }
    if reverts is not None:
        data["reverted_change_set_id"] = reverts.id
    record_event(
        tx.conn,
        "change_set_reverted" if reverts is not None else "change_set",
        at=when,
        by_name=by.name,
        agent_ids=[c.agent_id for c in saved],
        **data,
    )
    return ChangeSetRecord(
        set_id, title, by.name, when, reverts.id if reverts else None, tuple(saved)
    )


def revert_plan(tx: Transaction, record: ChangeSetRecord) -> tuple[list[PlannedChange], list[str]]:
    """What reverting ``record`` saves now, and the agents it skips (saved since)."""
    plan: list[PlannedChange] = []
    skipped: list[str] = []
    for change in record.changes:
        live = tx.task(change.agent_id, with_revisions=False)
        if live is None or live.version != change.version:
            skipped.append(change.agent_id)
            continue
        plan.append(PlannedChange(change.agent_id, change.version, change.content_before))
    return plan, skipped


def find_change_set(tx: Transaction, set_id: str) -> ChangeSetRecord | None:
    row = tx.conn.execute(
        "SELECT id, title, author_name, created_at, reverts_id FROM change_sets WHERE id = ?",
        (set_id,),
    ).fetchone()
    if row is None:
        return None
    changes = tuple(
        SavedChange(*r)
        for r in tx.conn.execute(
            "SELECT agent_id, version, content_before, content FROM change_set_changes"
            " WHERE change_set_id = ? ORDER BY position",
            (set_id,),
        )
    )
    return ChangeSetRecord(row[0], row[1], row[2], row[3], row[4], changes)


def list_change_sets(tx: Transaction) -> list[ChangeSetRecord]:
    """Every change set, newest first, each with its versions but not their texts."""
    versions: dict[str, list[SavedChange]] = {}
    for set_id, agent_id, version in tx.conn.execute(
        "SELECT change_set_id, agent_id, version FROM change_set_changes"
        " ORDER BY change_set_id, position"
    ):
        versions.setdefault(set_id, []).append(SavedChange(agent_id, version, "", ""))
    rows = tx.conn.execute(
        "SELECT id, title, author_name, created_at, reverts_id FROM change_sets"
        " ORDER BY serial DESC"
    ).fetchall()
    return [
        ChangeSetRecord(r[0], r[1], r[2], r[3], r[4], tuple(versions.get(r[0], ()))) for r in rows
    ]
