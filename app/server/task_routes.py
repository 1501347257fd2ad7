"""The Task endpoints (GET, PUT and DELETE task.md) and the runs that carry the Task.

Who may read a Task: any authenticated caller of the org (operators, members and agents);
an agent reads its Task in every run anyway. Only operators write it.
Who may start a run: any authenticated caller of the org, at most ``RunRate`` runs each
(429 with Retry-After past it). A run is expanded as its agent; what a caller sees of it
(POST's answer and GET) withholds every file that caller can't read (``run_views``).

``router`` holds the spec's Task endpoints, ``extension_router`` the runs. On a spec-only
server (``app.state.extensions`` False) the runs are not mounted, task.md carries no ETag
(no 304), bodies hold only the spec's fields, and a 409 does not carry the live version.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from app.core.expander import task_display_path, task_source
from app.core.limits import TASK_MAX_BYTES, utf8_len
from app.server.auth import database
from app.server.callers import Caller
from app.server.change_set_records import change_set_origins
from app.server.database import (
    AgentRecord,
    TaskRecord,
    Transaction,
    VersionConflictError,
    utc_now,
)
from app.server.live_expansion import expand_live_task
from app.server.rate_limit import RateLimiter
from app.server.responses import ApiError, JsonResponse
from app.server.routing import ApiRoutes
from app.server.run_records import RunRecord, add_run, find_run, new_run_id, runs_of
from app.server.run_views import file_spans, readable_by, run_summary_view, run_view
from app.server.system_prompt import build_system_prompt

router = ApiRoutes()
extension_router = ApiRoutes()

TASK_PATH = "/api/agents/{agent_id}/files/task.md"


def etag_of(task: TaskRecord) -> str:
    return f'"v{task.version}-{task.hash[:16]}"'


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    if not if_none_match:
        return False
    tags = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
    return "*" in tags or etag in tags


def extensions_on(request: Request) -> bool:
    """Whether this server answers with its EXTENSION parts (ETag, the version in a 409)."""
    return bool(getattr(request.app.state, "extensions", True))


def task_body(
    org_id: str,
    task: TaskRecord,
    *,
    spec_only: bool = False,
    change_sets: Mapping[int, dict[str, str]] | None = None,
) -> dict[str, Any]:
    """GET task.md's body (also PUT's): spec fields first, then the reference server's own
    (none of those when ``spec_only``). ``change_sets``: version → the change set that made
    it, shown as ``change_set: {id, title}`` on the live Task and on each such revision."""
    made_by = change_sets or {}
    revisions: list[dict[str, Any]] = []
    for r in task.revisions:
        revision: dict[str, Any] = {
            "version": r.version,
            "content": r.content,
            "replaced_at": r.replaced_at,
            "replaced_by_name": r.replaced_by_name,
        }
        if not spec_only:
            revision["replaced_by_type"] = r.replaced_by_type
            revision["replaced_by_id"] = r.replaced_by_id
            if r.version in made_by:
                revision["change_set"] = made_by[r.version]
        revisions.append(revision)
    body: dict[str, Any] = {
        "path": "task.md",
        "display_path": task_display_path(org_id, task.agent_id),
        "content": task.content,
        "version": task.version,
        "revisions": revisions,
    }
    if not spec_only:
        body.update(
            agent_id=task.agent_id,
            hash=task.hash,
            updated_at=task.updated_at,
            updated_by_name=task.updated_by_name,
            updated_by_type=task.updated_by_type,
            updated_by_id=task.updated_by_id,
        )
        if task.version in made_by:
            body["change_set"] = made_by[task.version]
        if task.version == 1:
            # Extension: version 1 is always the text the workspace file seeded (every save
            # adds a version), so it is nobody's edit (docs/API-EXTENSIONS.md).
            body["seeded"] = True
    return body


def task_response(
    org_id: str,
    task: TaskRecord,
    *,
    extensions: bool = True,
    change_sets: Mapping[int, dict[str, str]] | None = None,
) -> JsonResponse:
    if not extensions:
        return JsonResponse(task_body(org_id, task, spec_only=True))
    body = task_body(org_id, task, change_sets=change_sets)
    return JsonResponse(body, headers={"ETag": etag_of(task)})


def _agent_or_404(tx: Transaction, agent_id: str) -> AgentRecord:
    agent = tx.agent(agent_id)
    if agent is None:
        raise ApiError(404, "no such agent")
    return agent


@router.get(TASK_PATH)
def get_task(agent_id: str, request: Request, caller: Caller) -> Response:
    with database(request).read() as tx:
        live = tx.task(agent_id, with_revisions=False)
        if live is None:
            raise ApiError(404, "no such agent")
        etag = etag_of(live)
        extensions = extensions_on(request)
        if extensions and etag_matches(request.headers.get("if-none-match"), etag):
            return Response(status_code=304, headers={"ETag": etag})
        task = tx.task(agent_id)
        org_id = tx.meta("org_id")
        made_by = change_set_origins(tx, agent_id) if extensions else None
    assert task is not None
    return task_response(org_id, task, extensions=extensions, change_sets=made_by)


@router.put(TASK_PATH, reads_body=True)
def put_task(
    agent_id: str,
    request: Request,
    caller: Caller,
    body: dict[str, Any],
) -> Response:
    db = database(request)
    with db.read() as tx:
        _agent_or_404(tx, agent_id)
    expected = body.get("expected_version")
    # JSON has one kind of number: 2.0 is the integer 2, as the API document's JSON Schema
    # has it, and integers past 64 bits reach us in that form. bool is an int to Python but
    # not to the API; null, 1.5 and "1" are not integers either.
    if isinstance(expected, float) and expected.is_integer():
        expected = int(expected)
    if "expected_version" in body and type(expected) is not int:
        raise ApiError(422, "expected_version must be an integer")
    if not caller.is_operator:
        raise ApiError(422, "task is not writable")
    content = body.get("content")
    if not isinstance(content, str):
        raise ApiError(422, "content must be a string")
    if utf8_len(content) > TASK_MAX_BYTES:
        raise ApiError(422, "write exceeds 256 KB")
    restored = _restored_from(body) if extensions_on(request) else None
    with db.write() as tx:
        try:
            if restored is None:
                tx.save_task(agent_id, content, expected_version=expected, by=caller)
            else:
                tx.save_task(
                    agent_id,
                    content,
                    expected_version=expected,
                    by=caller,
                    event="task_restored",
                    restored_from=restored,
                )
        except VersionConflictError as conflict:
            live = {"version": conflict.live_version} if extensions_on(request) else None
            raise ApiError(409, "version conflict", extra=live) from None
        except KeyError:
            raise ApiError(404, "no such agent") from None
        task = tx.task(agent_id)
        org_id = tx.meta("org_id")
        made_by = change_set_origins(tx, agent_id)
    assert task is not None
    return task_response(org_id, task, extensions=extensions_on(request), change_sets=made_by)


def _restored_from(body: dict[str, Any]) -> int | None:
    """EXTENSION: the version a save puts back (the app's Restore sends it), so the change log
    records a restore rather than an edit; absent for an ordinary save."""
    if "restored_from" not in body:
        return None
    value = body["restored_from"]
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if type(value) is not int or value < 1:
        raise ApiError(422, "restored_from must be a version number")
    return value


@router.delete(TASK_PATH)
def delete_task(agent_id: str, request: Request, caller: Caller) -> Response:
    with database(request).read() as tx:
        _agent_or_404(tx, agent_id)
    raise ApiError(422, "cannot delete this file")


def _sees_whole(caller: Caller, agent_id: str) -> bool:
    """Operators, and the run's own agent, see a run whole (run_views)."""
    return caller.is_operator or (caller.type == "agent" and caller.id == agent_id)


def run_response(tx: Transaction, run: RunRecord, caller: Caller, status: int = 200) -> Response:
    body = run_view(run, readable_by(tx, caller), whole=_sees_whole(caller, run.agent_id))
    return JsonResponse(body, status_code=status)


@extension_router.post("/api/agents/{agent_id}/runs")
def create_run(agent_id: str, request: Request, caller: Caller) -> Response:
    limiter: RateLimiter = request.app.state.run_limiter
    wait = limiter.take(caller.id)
    if wait:
        raise ApiError(429, "too many runs", headers={"Retry-After": str(wait)})
    # One write transaction: the Task and notes the run records are the ones it expanded.
    with database(request).write() as tx:
        agent = _agent_or_404(tx, agent_id)
        task = tx.task(agent_id, with_revisions=False)
        assert task is not None
        expansion = expand_live_task(tx, agent, task.content)
        if expansion.over_budget:
            raise ApiError(422, "embed budget exceeded")
        org_id = tx.meta("org_id")
        source = task_source(
            expansion,
            version=task.version,
            task_text=task.content,
            display_path=task_display_path(org_id, agent_id),
        )
        run_id, created_at = new_run_id(), utc_now()
        prompt = build_system_prompt(
            agent_name=agent.name,
            guild_name=dict(tx.guilds()).get(agent.guild_id, agent.guild_id),
            org_name=tx.meta("org_name"),
            expanded_task=expansion.text,
            run_id=run_id,
            created_at=created_at,
        )
        spans = file_spans(expansion, prompt.index("<task>\n") + len("<task>\n"))
        run = RunRecord(run_id, agent_id, created_at, prompt, source, spans)
        add_run(tx, run, by=caller)
        return run_response(tx, run, caller, status=201)


@extension_router.get("/api/runs/{run_id}")
def get_run(run_id: str, request: Request, caller: Caller) -> Response:
    with database(request).read() as tx:
        run = find_run(tx, run_id)
        if run is None:
            raise ApiError(404, "no such run")
        return run_response(tx, run, caller)


@extension_router.get("/api/agents/{agent_id}/runs")
def list_runs(agent_id: str, request: Request, caller: Caller) -> Response:
    """The agent's kept runs, newest first, without their prompts; who may see what as
    for one run (GET /api/runs/:id)."""
    with database(request).read() as tx:
        _agent_or_404(tx, agent_id)
        readable = readable_by(tx, caller)
        whole = _sees_whole(caller, agent_id)
        runs = [run_summary_view(r, readable, whole=whole) for r in runs_of(tx, agent_id)]
    return JsonResponse({"runs": runs})
