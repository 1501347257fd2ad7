"""The Task answers' own queries: the live version's stamp, the kept versions, chosen revisions.

Portable SQL (``?`` placeholders, no SQLite-only functions): the same text runs on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.core.limits import MAX_REVISIONS
from app.server.db_records import RevisionRecord, TaskRecord


def live_stamp(conn: Any, agent_id: str) -> tuple[int, str] | None:
    """(live version, live text's hash) of the agent's Task; None when there is no such agent.

    One indexed row: what decides whether an answer kept for a version is still the live one."""
    row = conn.execute(
        "SELECT task_version, task_hash FROM agents WHERE id = ?", (agent_id,)
    ).fetchone()
    return (int(row[0]), str(row[1])) if row is not None else None


def kept_versions(conn: Any, agent_id: str) -> list[int]:
    """The versions of the agent's kept revisions, newest first (read from the key alone)."""
    rows = conn.execute(
        "SELECT version FROM task_revisions WHERE agent_id = ? ORDER BY version DESC",
        (agent_id,),
    )
    return [int(r[0]) for r in rows]


def kept_after_one_save(before: TaskRecord, kept: list[int], after: TaskRecord) -> list[int] | None:
    """The kept versions after one ``Transaction.save_task`` took the Task from ``before``
    (whose kept versions were ``kept``) to ``after``, by its rules: the text it replaced kept
    unless empty, the newest MAX_REVISIONS only. None when ``after`` is not one save on from
    ``before`` (read them then)."""
    if after.version == before.version and after.hash == before.hash:
        return kept  # the same text: nothing was written
    if after.version != before.version + 1:
        return None
    if not before.content:
        return kept
    return [before.version, *kept][:MAX_REVISIONS]


def revisions_with_text(conn: Any, agent_id: str, versions: Iterable[int]) -> list[RevisionRecord]:
    """The named revisions, text included, newest first."""
    wanted = sorted(set(versions), reverse=True)
    if not wanted:
        return []
    marks = ", ".join("?" * len(wanted))
    rows = conn.execute(
        "SELECT version, content_text, replaced_at, replaced_by_type, replaced_by_id,"
        f" replaced_by_name FROM task_revisions WHERE agent_id = ? AND version IN ({marks})"
        " ORDER BY version DESC",
        (agent_id, *wanted),
    )
    return [RevisionRecord(*r) for r in rows]
