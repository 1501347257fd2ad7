"""The fleet's endpoints: every agent's health, search across every Task, change sets, audit.

All of them are the reference server's own (shared/spec/API.md "The fleet") and for
operators only: reads refuse others with 422 ``operators only``; a change set, which saves
Tasks, refuses them as a Task PUT does, 422 ``task is not writable``. A spec-only server
leaves the whole module unmounted.
"""

from __future__ import annotations

import json
from datetime import datetime
from functools import partial
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from app.core.fleet_rows import BadPatternError, LineSearch, health_row
from app.core.limits import TASK_MAX_BYTES, utf8_len
from app.server.auth import database
from app.server.callers import Caller
from app.server.change_set_records import (
    EDITED_SINCE,
    ChangeSetConflictError,
    ChangeSetRecord,
    PlannedChange,
    apply_change_set,
    find_change_set,
    list_change_sets,
    revert_plan,
)
from app.server.database import Transaction
from app.server.fleet_cache import ExpandedFacts, FleetCache
from app.server.fleet_records import (
    AgentHead,
    KeptRun,
    LiveTask,
    agent_heads,
    expander_for,
    kept_runs,
    live_tasks_of,
    newest_runs,
    open_proposal_counts,
    search_heads,
    task_texts_of,
)
from app.server.fleet_search import agent_entry, search_body
from app.server.org_log import KINDS, OrgEvent
from app.server.responses import ApiError, JsonResponse
from app.server.routing import ApiRoutes
from app.server.task_shapes import Shapes, keep_shapes, kept_shapes, shapes_of

router = ApiRoutes()

TITLE_MAX = 200
AUDIT_LIMIT = 500
AUDIT_LIMIT_MAX = 5000
AUDIT_BATCH = 1000


def _operators_only(caller: Caller) -> None:
    if not caller.is_operator:
        raise ApiError(422, "operators only")


# ------------------------------------------------------------------ health


@router.get("/api/org/health")
def org_health(request: Request, caller: Caller) -> Response:
    """One row per agent: sizes, the budget, broken embeds, shape findings, open proposals,
    the newest run and whether a run now would get another expanded Task.

    Answered from kept figures: the used-by index's (embedded bytes, broken embeds) and the
    kept shape findings. Only an agent with a run is expanded (its expanded Task is compared
    with the run's), and only a Task whose findings are not kept yet is checked; those
    findings are kept for the next read."""
    _operators_only(caller)
    cache = fleet_cache(request)
    db = database(request)
    with db.read() as tx:
        tasks = _live(tx, cache, agent_heads(tx))
        shapes, fresh = _shapes(tx, cache, tasks)
        kept = kept_runs(tx)
        runs = newest_runs(tx)
        proposals = open_proposal_counts(tx)
        generation = tx.files_generation()
        expand = expander_for(tx)
        rows = []
        for task in tasks:
            agent = task.agent
            run = runs.get(agent.id)
            figures: KeptRun | ExpandedFacts | None = kept.get(agent.id)
            text_hash = None
            if figures is None or run is not None:
                facts = cache.facts(agent.id, task.hash, generation, partial(expand, task))
                figures, text_hash = facts, facts.text_hash
            assert figures is not None
            rows.append(
                health_row(
                    agent.id,
                    agent.name,
                    agent.guild_id,
                    agent.task_version,
                    task.content,
                    embedded_bytes=figures.embedded_bytes,
                    over_budget=figures.over_budget,
                    broken_embeds=figures.broken_embeds,
                    shape=shapes[task.hash],
                    open_proposals=proposals.get(agent.id, 0),
                    last_run_at=run.created_at if run else None,
                    prompt_changed_since_run=(
                        None if run is None else run.expanded_task_hash != text_hash
                    ),
                )
            )
    if fresh:
        with db.write() as tx:
            keep_shapes(tx, fresh)
    return JsonResponse({"agents": rows})


def _shapes(tx: Transaction, cache: FleetCache, tasks: list[LiveTask]) -> tuple[Shapes, Shapes]:
    """Each Task's shape findings by its hash, and those of them checked just now (not kept
    in the database yet)."""
    hashes = {t.hash for t in tasks}
    known = cache.shapes(hashes)
    fresh: Shapes = {}
    if len(known) < len(hashes):
        kept = {h: codes for h, codes in kept_shapes(tx).items() if h in hashes}
        known.update(kept)
        fresh = shapes_of((t.hash, t.content) for t in tasks if t.hash not in known)
        known.update(fresh)
        cache.remember_shapes({**kept, **fresh})
    return known, fresh


def _live(tx: Transaction, cache: FleetCache, heads: list[AgentHead]) -> list[LiveTask]:
    """The agents' live Tasks, their texts from the cache where the hash is known there."""
    texts = cache.task_texts(
        {h.agent.id: h.hash for h in heads},
        partial(task_texts_of, tx),
    )
    return [LiveTask(h.agent, texts[h.agent.id].text, h.hash) for h in heads if h.agent.id in texts]


def fleet_cache(request: Request) -> FleetCache:
    """The app's one cache of shape checks and expansions (made on first use)."""
    state = request.app.state
    cache: FleetCache | None = getattr(state, "fleet_cache", None)
    if cache is None:
        cache = state.fleet_cache = FleetCache()
    return cache


# ------------------------------------------------------------------ search


def _search(request: Request) -> LineSearch:
    query = request.query_params.get("q", "")
    if not query:
        raise ApiError(422, "q must not be empty")
    try:
        return LineSearch(query, regex=request.query_params.get("regex") in ("1", "true"))
    except BadPatternError:
        raise ApiError(422, "bad pattern") from None


@router.get("/api/org/search")
def org_search(request: Request, caller: Caller) -> Response:
    """Every line holding the text (or pattern) in each live Task, or in each Task as its
    run would get it (``in=prompt``), by agent."""
    _operators_only(caller)
    where = request.query_params.get("in", "task")
    if where not in ("task", "prompt"):
        raise ApiError(422, "in must be task or prompt")
    search = _search(request)
    guild = request.query_params.get("guild")
    cache = fleet_cache(request)
    with database(request).read() as tx:
        if guild is not None and not tx.guild_exists(guild):
            raise ApiError(404, "no such guild")
        entries = []
        if where == "task":
            heads = search_heads(tx, guild)
            texts = cache.task_texts(
                {agent_id: task_hash for agent_id, _, task_hash in heads},
                partial(task_texts_of, tx),
            )
            for agent_id, name, _ in heads:
                matches = texts[agent_id].encoded_matches(search)
                if matches:
                    entries.append(agent_entry(agent_id, name, matches))
        else:
            expand = expander_for(tx, every_agent=True)
            generation = tx.files_generation()
            for task in _live(tx, cache, agent_heads(tx, guild)):
                facts = cache.facts(
                    task.agent.id, task.hash, generation, partial(expand, task), need_text=True
                )
                searchable = cache.searchable_expansion(facts, facts.text or "")
                matches = searchable.encoded_matches(search)
                if matches:
                    entries.append(agent_entry(task.agent.id, task.agent.name, matches))
    # Written as bytes from each Task's kept lines (fleet_search): what orjson would make.
    return Response(search_body(entries), media_type="application/json")


# ------------------------------------------------------------------ change sets


def _title(body: dict[str, Any]) -> str:
    title = body.get("title")
    if not isinstance(title, str) or not 1 <= len(title.strip()) <= TITLE_MAX:
        raise ApiError(422, "title must be 1 to 200 characters")
    return title.strip()


def _planned(body: dict[str, Any]) -> list[PlannedChange]:
    """Each change checked as a Task PUT is (the same statuses and words)."""
    changes = body.get("changes")
    if not isinstance(changes, list) or not changes:
        raise ApiError(422, "changes must be a list of at least one change")
    planned: list[PlannedChange] = []
    seen: set[str] = set()
    for change in changes:
        if not isinstance(change, dict) or not isinstance(change.get("agent_id"), str):
            raise ApiError(422, "each change needs an agent_id")
        expected = change.get("expected_version")
        if isinstance(expected, float) and expected.is_integer():
            expected = int(expected)
        if type(expected) is not int:
            raise ApiError(422, "expected_version must be an integer")
        content = change.get("content")
        if not isinstance(content, str):
            raise ApiError(422, "content must be a string")
        if utf8_len(content) > TASK_MAX_BYTES:
            raise ApiError(422, "write exceeds 256 KB")
        agent_id = change["agent_id"]
        if agent_id in seen:
            raise ApiError(422, "a change set changes each Task once")
        seen.add(agent_id)
        planned.append(PlannedChange(agent_id, expected, content))
    return planned


def _versions(record: ChangeSetRecord) -> list[dict[str, Any]]:
    return [{"agent_id": c.agent_id, "version": c.version} for c in record.changes]


def change_set_body(record: ChangeSetRecord, *, with_contents: bool = False) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": record.id,
        "title": record.title,
        "author_name": record.author_name,
        "created_at": record.created_at,
        "versions": _versions(record),
    }
    if record.reverts_id is not None:
        body["reverts"] = record.reverts_id  # EXTENSION: which change set this one reverted
    if with_contents:
        body["changes"] = [
            {"agent_id": c.agent_id, "version": c.version, "content": c.content}
            for c in record.changes
        ]
    return body


def _conflict(conflict: ChangeSetConflictError) -> ApiError:
    return ApiError(
        409,
        "version conflict",
        extra={"conflicts": [{"agent_id": a, "version": v} for a, v in conflict.conflicts]},
    )


@router.post("/api/org/change-sets", reads_body=True)
def create_change_set(request: Request, caller: Caller, body: dict[str, Any]) -> Response:
    """All or nothing: a version conflict anywhere saves nothing."""
    if not caller.is_operator:
        raise ApiError(422, "task is not writable")
    title = _title(body)
    planned = _planned(body)
    with database(request).write() as tx:
        missing = [c.agent_id for c in planned if tx.agent(c.agent_id) is None]
        if missing:
            raise ApiError(404, "no such agent")
        try:
            record = apply_change_set(tx, title, planned, by=caller)
        except ChangeSetConflictError as conflict:
            raise _conflict(conflict) from None
    return JsonResponse(change_set_body(record), status_code=201)


@router.get("/api/org/change-sets")
def org_change_sets(request: Request, caller: Caller) -> Response:
    _operators_only(caller)
    with database(request).read() as tx:
        records = list_change_sets(tx)
    return JsonResponse({"change_sets": [change_set_body(r) for r in records]})


@router.get("/api/org/change-sets/{change_set_id}")
def get_change_set(change_set_id: str, request: Request, caller: Caller) -> Response:
    _operators_only(caller)
    with database(request).read() as tx:
        record = find_change_set(tx, change_set_id)
    if record is None:
        raise ApiError(404, "no such change set")
    return JsonResponse(change_set_body(record, with_contents=True))


@router.post("/api/org/change-sets/{change_set_id}/revert")
def revert_change_set(change_set_id: str, request: Request, caller: Caller) -> Response:
    """Puts back each Task's text from before the change set, as new versions; a Task
    saved since is left alone and listed in ``skipped``."""
    if not caller.is_operator:
        raise ApiError(422, "task is not writable")
    with database(request).write() as tx:
        record = find_change_set(tx, change_set_id)
        if record is None:
            raise ApiError(404, "no such change set")
        plan, skipped = revert_plan(tx, record)
        title = f'Revert "{record.title}"'
        made = apply_change_set(tx, title, plan, by=caller, reverts=record)
    body = change_set_body(made)
    body["skipped"] = [{"agent_id": a, "reason": EDITED_SINCE} for a in skipped]
    return JsonResponse(body, status_code=201)


# ------------------------------------------------------------------ audit


def _since(request: Request) -> str | None:
    since = request.query_params.get("since")
    if since is None:
        return None
    try:
        parsed = datetime.fromisoformat(since.replace("Z", "+00:00"))
    except ValueError:
        raise ApiError(422, "since must be an ISO 8601 time") from None
    if parsed.tzinfo is None:
        raise ApiError(422, "since must be an ISO 8601 time")
    return since


def _limit(request: Request) -> int:
    raw = request.query_params.get("limit")
    if raw is None:
        return AUDIT_LIMIT
    if not raw.isdigit() or not 1 <= int(raw) <= AUDIT_LIMIT_MAX:
        raise ApiError(422, f"limit must be a number from 1 to {AUDIT_LIMIT_MAX}")
    return int(raw)


def audit_row(event: OrgEvent) -> dict[str, Any]:
    row: dict[str, Any] = {
        "at": event.at,
        "kind": event.kind,
        "by_name": event.by_name,
        "agent_ids": list(event.agent_ids),
    }
    for key in ("version", "display_path", "proposal_id", "change_set_id"):
        if key in event.data:
            row[key] = event.data[key]
    # EXTENSION: a change set's title and versions, a restore's source version.
    for key in ("title", "versions", "restored_from", "reverted_change_set_id"):
        if key in event.data:
            row[key] = event.data[key]
    return row


AUDIT_KINDS = tuple(sorted(KINDS - {"proposal_revised"}))
"""What the audit lists: every kind of the org's log but a proposal's revision (its author's
drafting, not a change of the org)."""


@router.get("/api/org/audit")
def org_audit(request: Request, caller: Caller) -> Response:
    """The org's change log, newest first, filtered by time, agent and guild."""
    _operators_only(caller)
    since, limit = _since(request), _limit(request)
    agent = request.query_params.get("agent")
    guild = request.query_params.get("guild")
    placeholders = ", ".join("?" for _ in AUDIT_KINDS)
    with database(request).read() as tx:
        in_guild = {a.id for a in tx.agents(guild)} if guild is not None else None
        events: list[dict[str, Any]] = []
        before: int | None = None
        while len(events) < limit:
            sql = (
                "SELECT id, at, kind, by_name, agent_ids, data FROM org_events"
                f" WHERE kind IN ({placeholders})"
            )
            args: list[Any] = list(AUDIT_KINDS)
            if before is not None:
                sql += " AND id < ?"
                args.append(before)
            if since is not None:
                sql += " AND at >= ?"
                args.append(since)
            if agent is not None:
                # The JSON list holds each id quoted: a cheap narrowing, checked below.
                sql += " AND agent_ids LIKE ?"
                args.append(f'%"{_like_escaped(agent)}"%')
            sql += " ORDER BY id DESC LIMIT ?"
            args.append(AUDIT_BATCH)
            batch = [_decoded(row) for row in tx.conn.execute(sql, args).fetchall()]
            for event in batch:
                if agent is not None and agent not in event.agent_ids:
                    continue
                if in_guild is not None and not in_guild.intersection(event.agent_ids):
                    continue
                events.append(audit_row(event))
                if len(events) == limit:
                    break
            if len(batch) < AUDIT_BATCH:
                break
            before = batch[-1].id
    return JsonResponse({"events": events})


def _like_escaped(value: str) -> str:
    """``%`` and ``_`` in an id match any text in LIKE; the exact check comes after anyway."""
    return value.replace("%", "_").replace('"', "_")


def _decoded(row: Any) -> OrgEvent:
    event_id, at, kind, by_name, agent_ids, data = row
    return OrgEvent(
        int(event_id), at, kind, by_name, tuple(json.loads(agent_ids)), json.loads(data)
    )


# ------------------------------------------------------------------ many live Tasks at once

TASKS_AT_ONCE = 1000


@router.get("/api/org/tasks")
def org_tasks(request: Request, caller: Caller) -> Response:
    """The live text and version of each agent named (``agent=ID``, repeated, at most 1,000),
    without revisions: what a change set's preview reads, in one request instead of one per
    Task. Any caller of the org, as for one Task; unknown ids are left out."""
    wanted = request.query_params.getlist("agent")
    if len(wanted) > TASKS_AT_ONCE:
        raise ApiError(422, f"at most {TASKS_AT_ONCE} agents at once")
    with database(request).read() as tx:
        tasks = live_tasks_of(tx, wanted)
    return JsonResponse(
        {
            "tasks": [
                {
                    "agent_id": t.agent.id,
                    "version": t.agent.task_version,
                    "content": t.content,
                    "hash": t.hash,
                }
                for t in tasks
            ]
        }
    )
