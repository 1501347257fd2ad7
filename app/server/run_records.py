"""Runs as the server keeps them: the prompt, its task_source, and where each file's text sits.

A run keeps the Task it started with. Besides the prompt it stores ``spans``: the part of the
prompt each inlined note, collection name or repeated title came from, so the prompt can be
shown to a caller with what they may not read withheld (``run_views``). An agent keeps only
its newest ``MAX_RUNS_PER_AGENT`` runs: runs are cheap to start, and without a cap any
caller could fill the disk.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.server.callers import Caller
    from app.server.database import Transaction

MAX_RUNS_PER_AGENT = 200


@dataclass(frozen=True, slots=True)
class Span:
    """``system_prompt[start:end]`` came from the org file at ``path``; ``parent`` is the index
    of the span of the note it was inlined from (-1: the Task itself)."""

    start: int
    end: int
    path: str
    parent: int


@dataclass(frozen=True, slots=True)
class RunRecord:
    id: str
    agent_id: str
    created_at: str
    system_prompt: str
    task_source: dict[str, Any]
    spans: tuple[Span, ...] | None  # None: a run stored before spans were kept


def new_run_id() -> str:
    return f"run_{secrets.token_hex(8)}"


def add_run(tx: Transaction, run: RunRecord, *, by: Caller) -> RunRecord:
    """Store ``run`` and drop the agent's runs past the newest ``MAX_RUNS_PER_AGENT``."""
    spans = None if run.spans is None else [[s.start, s.end, s.path, s.parent] for s in run.spans]
    tx.conn.execute(
        "INSERT INTO runs (id, agent_id, created_at, created_by_id, system_prompt, task_source,"
        " spans, seq) VALUES (?, ?, ?, ?, ?, ?, ?,"
        " (SELECT COALESCE(MAX(seq), 0) + 1 FROM runs WHERE agent_id = ?))",
        (
            run.id,
            run.agent_id,
            run.created_at,
            by.id,
            run.system_prompt,
            json.dumps(run.task_source),
            None if spans is None else json.dumps(spans),
            run.agent_id,
        ),
    )
    tx.conn.execute(
        "DELETE FROM runs WHERE agent_id = ? AND id NOT IN"
        " (SELECT id FROM runs WHERE agent_id = ? ORDER BY created_at DESC, seq DESC"
        "  LIMIT ?)",
        (run.agent_id, run.agent_id, MAX_RUNS_PER_AGENT),
    )
    return run


def find_run(tx: Transaction, run_id: str) -> RunRecord | None:
    row = tx.conn.execute(
        "SELECT id, agent_id, created_at, system_prompt, task_source, spans FROM runs WHERE id = ?",
        (run_id,),
    ).fetchone()
    if row is None:
        return None
    spans = None if row[5] is None else tuple(Span(*s) for s in json.loads(row[5]))
    return RunRecord(row[0], row[1], row[2], row[3], json.loads(row[4]), spans)


@dataclass(frozen=True, slots=True)
class RunSummary:
    """A run as the runs list shows it: everything but its prompt."""

    id: str
    agent_id: str
    created_at: str
    created_by_id: str
    created_by_name: str
    task_source: dict[str, Any]
    spans: tuple[Span, ...] | None


def runs_of(tx: Transaction, agent_id: str) -> list[RunSummary]:
    """The agent's kept runs, newest first, without their prompts (each up to ~300 KB)."""
    rows = tx.conn.execute(
        "SELECT r.id, r.agent_id, r.created_at, r.created_by_id,"
        " COALESCE(p.name, a.name, r.created_by_id), r.task_source, r.spans FROM runs r"
        " LEFT JOIN people p ON p.id = r.created_by_id"
        " LEFT JOIN agents a ON a.id = r.created_by_id"
        " WHERE r.agent_id = ? ORDER BY r.created_at DESC, r.seq DESC",
        (agent_id,),
    ).fetchall()
    return [
        RunSummary(
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            json.loads(row[5]),
            None if row[6] is None else tuple(Span(*s) for s in json.loads(row[6])),
        )
        for row in rows
    ]
