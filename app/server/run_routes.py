"""The runs that carry a Task (EXTENSION): start one, read one, list an agent's.

Who may start a run: any authenticated caller of the org, at most ``RunRate`` runs each
(429 with Retry-After past it). A run is expanded as its agent; what a caller sees of it
(POST's answer and GET) withholds every file that caller can't read (``run_views``). On a
spec-only server (``app.state.extensions`` False) none of these is mounted.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from app.core.expander import task_display_path, task_source
from app.server.auth import database
from app.server.callers import Caller
from app.server.database import Transaction, utc_now
from app.server.live_expansion import expand_live_task
from app.server.rate_limit import RateLimiter
from app.server.responses import ApiError, JsonResponse
from app.server.routing import ApiRoutes
from app.server.run_records import RunRecord, add_run, find_run, new_run_id, runs_of
from app.server.run_views import file_spans, readable_by, run_summary_view, run_view
from app.server.system_prompt import build_system_prompt
from app.server.task_routes import agent_or_404

extension_router = ApiRoutes()


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
        agent = agent_or_404(tx, agent_id)
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
        agent_or_404(tx, agent_id)
        readable = readable_by(tx, caller)
        whole = _sees_whole(caller, agent_id)
        runs = [run_summary_view(r, readable, whole=whole) for r in runs_of(tx, agent_id)]
    return JsonResponse({"runs": runs})
