"""The Task endpoints: GET, PUT and DELETE task.md, and one kept revision's text.

Who may read a Task: any authenticated caller of the org (operators, members and agents);
an agent reads its Task in every run anyway. Only operators write it.

``router`` holds the spec's Task endpoints, ``extension_router`` one revision's text
(``GET task.md/revisions/:version``, for a client that read the Task with
``?revisions=summary``, which leaves the revisions' text out). On a spec-only server
(``app.state.extensions`` False) task.md carries no ETag (no 304), bodies hold only the
spec's fields, and a 409 does not carry the live version. The runs are in ``run_routes``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from app.core.expander import task_display_path
from app.core.models import sha256_hex
from app.server.auth import database
from app.server.callers import Caller
from app.server.database import (
    AgentRecord,
    TaskRecord,
    Transaction,
)
from app.server.db_records import RevisionRecord
from app.server.responses import ApiError, JsonResponse
from app.server.routing import ApiRoutes
from app.server.task_answers import (
    EncodedTask,
    Piece,
    SharedBody,
    TaskAnswers,
    TaskView,
    answer_head,
    encode_with_revisions,
)
from app.server.task_revision_records import (
    kept_after_one_save,
    kept_versions,
    live_stamp,
    revisions_with_text,
)
from app.server.version_origins import Origins, version_origins

router = ApiRoutes()
extension_router = ApiRoutes()

TASK_PATH = "/api/agents/{agent_id}/files/task.md"


def stamp_etag(version: int, digest: str) -> str:
    return f'"v{version}-{digest[:16]}"'


def etag_of(task: TaskRecord) -> str:
    return stamp_etag(task.version, task.hash)


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    if not if_none_match:
        return False
    tags = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
    return "*" in tags or etag in tags


def extensions_on(request: Request) -> bool:
    """Whether this server answers with its EXTENSION parts (ETag, the version in a 409)."""
    return bool(getattr(request.app.state, "extensions", True))


def revision_fields(
    r: RevisionRecord, *, spec_only: bool = False, origin: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """One revision as task.md's ``revisions`` lists it; ``origin``: the EXTENSION fields of
    the proposal or change set that made it (``version_origins``), none for the others."""
    revision: dict[str, Any] = {
        "version": r.version,
        "content": r.content,
        "replaced_at": r.replaced_at,
        "replaced_by_name": r.replaced_by_name,
    }
    if not spec_only:
        revision["replaced_by_type"] = r.replaced_by_type
        revision["replaced_by_id"] = r.replaced_by_id
        if origin:
            revision.update(origin)
    return revision


def summary_fields(r: RevisionRecord, origin: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One revision without its text (EXTENSION ``?revisions=summary``), but with the text's
    SHA-256, so a client can tell that the text it holds for that version is this one."""
    summary: dict[str, Any] = {
        "version": r.version,
        "replaced_at": r.replaced_at,
        "replaced_by_name": r.replaced_by_name,
        "replaced_by_type": r.replaced_by_type,
        "replaced_by_id": r.replaced_by_id,
        "content_hash": sha256_hex(r.content),
    }
    if origin:
        summary.update(origin)
    return summary


def task_body(
    org_id: str,
    task: TaskRecord,
    *,
    spec_only: bool = False,
    origins: Mapping[int, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """GET task.md's body (also PUT's): spec fields first, then the reference server's own
    (none of those when ``spec_only``). ``origins``: version → the fields of the proposal or
    change set that made it (``version_origins``), on the live Task and on each revision."""
    origins = origins or {}
    revisions = [
        revision_fields(r, spec_only=spec_only, origin=origins.get(r.version))
        for r in task.revisions
    ]
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
        body.update(origins.get(task.version, {}))
        if task.version == 1:
            # Extension: version 1 is always the text the workspace file seeded (every save
            # adds a version), so it is nobody's edit (docs/API-EXTENSIONS.md).
            body["seeded"] = True
    return body


def task_view(request: Request) -> TaskView:
    """The answer asked for: ``?revisions=summary`` (an EXTENSION, so ignored by a spec-only
    server) leaves the revisions' text out; any other value is ignored."""
    if not extensions_on(request):
        return TaskView.SPEC
    if request.query_params.get("revisions") == "summary":
        return TaskView.SUMMARY
    return TaskView.FULL


@dataclass(frozen=True, slots=True)
class TaskAnswerParts:
    """What a version's answer is made of, read in one transaction; encoded after it ends,
    so a save holds the write lock only for its reads."""

    view: TaskView
    body: dict[str, Any]
    live: TaskRecord
    versions: list[int]
    pieces: dict[int, Piece]
    earlier: bytes  # the body the pieces given as spans lie in
    origins: Origins  # which proposal or change set made each version (none in the spec's)

    def encode(self, answers: TaskAnswers) -> EncodedTask:
        pieces = [self.pieces[v] for v in self.versions]
        body, spans = encode_with_revisions(self.body, pieces, self.earlier)
        spans_of = dict(zip(self.versions, spans, strict=True))
        answer = EncodedTask(self.live.version, self.live.hash, etag_of(self.live), body, spans_of)
        answers.keep(self.live.agent_id, self.view, answer)
        return answer


def task_answer_parts(
    tx: Transaction,
    answers: TaskAnswers,
    agent_id: str,
    view: TaskView,
    earlier_in_tx: TaskAnswerParts | None = None,
) -> TaskAnswerParts:
    """The live version's answer's parts, read in ``tx``. The revisions already encoded for an
    earlier version are re-used (a kept revision never changes), so only new ones are read:
    from the kept answer, or from ``earlier_in_tx``, the parts of this Task's answer (in any
    view) read in ``tx`` right after the save before the last one made (saves gathered in one
    transaction, ``loop_writes``), which are not kept yet."""
    live = tx.task(agent_id, with_revisions=False)
    if live is None:
        raise ApiError(404, "no such agent")
    versions = None
    if earlier_in_tx is not None:  # the versions follow from it: no scan of the 50
        versions = kept_after_one_save(earlier_in_tx.live, earlier_in_tx.versions, live)
    if versions is None:
        versions = kept_versions(tx.conn, agent_id)
    pieces: dict[int, Piece] = {}
    earlier_body = b""
    if earlier_in_tx is not None and earlier_in_tx.view is view:
        before = earlier_in_tx.pieces
        pieces = {v: before[v] for v in versions if v in before}
        earlier_body = earlier_in_tx.earlier
    elif (earlier := answers.latest(agent_id, view)) is not None:
        kept = earlier.spans
        pieces = {v: kept[v] for v in versions if v in kept}
        earlier_body = earlier.body
    missing = [v for v in versions if v not in pieces]
    # Which proposal or change set made a version is fixed when it is saved, so a kept
    # encoding of a revision stays true; only the spec's answer leaves it out. A save of the
    # text alone makes no origin (a proposal's publish or a change set does, never gathered),
    # so the ones read after the save before this one in the transaction still hold.
    origins: Origins = {}
    if view is not TaskView.SPEC:
        if earlier_in_tx is not None and earlier_in_tx.view is not TaskView.SPEC:
            origins = earlier_in_tx.origins
        else:
            origins = version_origins(tx.conn, agent_id)
    archived = _archived_by_the_last_save(earlier_in_tx, live, missing)
    # A revision is read (and hashed) once per process and view: its encoding is kept.
    for r in archived or revisions_with_text(tx.conn, agent_id, missing):
        origin = origins.get(r.version)
        if view is TaskView.SUMMARY:
            pieces[r.version] = orjson.dumps(summary_fields(r, origin))
        else:
            fields = revision_fields(r, spec_only=view is TaskView.SPEC, origin=origin)
            pieces[r.version] = orjson.dumps(fields)
    body = task_body(tx.meta("org_id"), live, spec_only=view is TaskView.SPEC, origins=origins)
    return TaskAnswerParts(view, body, live, versions, pieces, earlier_body, origins)


def _archived_by_the_last_save(
    earlier_in_tx: TaskAnswerParts | None, live: TaskRecord, missing: list[int]
) -> list[RevisionRecord] | None:
    """The revision the one save from ``earlier_in_tx.live`` to ``live`` archived, as
    ``Transaction.save_task`` wrote it (the text it replaced, with that save's time and
    author), when it is the only one missing; else None (read them)."""
    if earlier_in_tx is None:
        return None
    before = earlier_in_tx.live
    if missing != [before.version] or live.version != before.version + 1:
        return None
    return [
        RevisionRecord(
            before.version,
            before.content,
            live.updated_at,
            live.updated_by_type,
            live.updated_by_id,
            live.updated_by_name,
        )
    ]


def task_answers(request: Request) -> TaskAnswers:
    answers: TaskAnswers = request.app.state.task_answers
    return answers


def answer_response(answer: EncodedTask, view: TaskView) -> Response:
    response = SharedBody(answer.body)
    response.raw_headers = answer_head(answer, view)
    return response


def agent_or_404(tx: Transaction, agent_id: str) -> AgentRecord:
    agent = tx.agent(agent_id)
    if agent is None:
        raise ApiError(404, "no such agent")
    return agent


def get_task_at_once(
    agent_id: str, request: Request, caller: Caller
) -> Response | Awaitable[Response | None] | None:
    """304, 404, or the answer kept for the live version, from one indexed row; None sends
    the request on to ``get_task`` (the answer must be built). On the event loop, no thread
    hop, where the database is a local file (SQLite in WAL mode never makes a reader wait for
    a writer); on PostgreSQL the row is a round trip, read in a thread."""
    if not database(request).on_loop:
        return run_in_threadpool(_kept_answer, agent_id, request)
    return _kept_answer(agent_id, request)


def _kept_answer(agent_id: str, request: Request) -> Response | None:
    db = database(request)
    with db.loop_read() if db.on_loop else db.point_read() as tx:  # PG: in a thread
        stamp = live_stamp(tx.conn, agent_id)
    if stamp is None:
        raise ApiError(404, "no such agent")
    view = task_view(request)
    etag = stamp_etag(*stamp)
    if view is not TaskView.SPEC and etag_matches(request.headers.get("if-none-match"), etag):
        return Response(status_code=304, headers={"ETag": etag})
    answer = task_answers(request).current(agent_id, view, stamp)
    return answer_response(answer, view) if answer is not None else None


@router.get(TASK_PATH, at_once=get_task_at_once)
def get_task(agent_id: str, request: Request, caller: Caller) -> Response:
    view = task_view(request)
    with database(request).read() as tx:
        live = tx.task(agent_id, with_revisions=False)
        if live is None:
            raise ApiError(404, "no such agent")
        etag = etag_of(live)
        if view is not TaskView.SPEC and etag_matches(request.headers.get("if-none-match"), etag):
            return Response(status_code=304, headers={"ETag": etag})
        parts = task_answer_parts(tx, task_answers(request), agent_id, view)
    return answer_response(parts.encode(task_answers(request)), view)


def agent_known(agent_id: str, request: Request) -> None:
    """404 for an agent there is none of (a point read, as the GET's), before a PUT's body
    is looked at."""
    with database(request).point_read() as tx:
        if live_stamp(tx.conn, agent_id) is None:
            raise ApiError(404, "no such agent")


@extension_router.get(TASK_PATH + "/revisions/{version}")
def get_task_revision(agent_id: str, version: str, request: Request, caller: Caller) -> Response:
    """EXTENSION: one kept revision with its text, for a client that read the Task with
    ``?revisions=summary``; who may read it as for the Task."""
    with database(request).read() as tx:
        agent_or_404(tx, agent_id)
        # Versions are positive 64-bit integers; anything else names no revision.
        plain = version.isascii() and version.isdigit() and len(version) <= 18
        number = int(version) if plain else None
        found = revisions_with_text(tx.conn, agent_id, [number]) if number is not None else []
        origins = version_origins(tx.conn, agent_id) if found else {}
    if not found:
        raise ApiError(404, "no such revision")
    return JsonResponse(revision_fields(found[0], origin=origins.get(found[0].version)))


@router.delete(TASK_PATH)
def delete_task(agent_id: str, request: Request, caller: Caller) -> Response:
    with database(request).read() as tx:
        agent_or_404(tx, agent_id)
    raise ApiError(422, "cannot delete this file")
