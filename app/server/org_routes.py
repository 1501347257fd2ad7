"""The org-wide endpoints: who am I, agents, guilds, embed status, the picker's notes, notes.

``router`` holds the spec's endpoints (embed status, the picker's notes);
``extension_router`` the reference server's own (who am I, agents, guilds, notes), which a
spec-only server leaves unmounted.

Reading a note: operators read every file of the org; members and agents only what an
access list gives them (anything else is 404 ``not found``, so a caller cannot tell a file
it may not read from a missing one). Deleting a note: operators only; a note or collection
that a live Task embeds directly is refused with 409.
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response

from app.core.expander import file_stem, level_of, task_display_path
from app.core.models import OrgFile
from app.server import note_revisions
from app.server.auth import database
from app.server.callers import Caller
from app.server.database import AgentRecord, FileEmbeddedError, Transaction
from app.server.live_expansion import expand_live_task
from app.server.note_path import NOTE_PATH
from app.server.picker_notes import (
    COMPACT,
    Form,
    PickerBodies,
    accepts_gzip,
    access_json,
    compact_body,
    picker_key,
    readable_rows,
    spec_body,
)
from app.server.responses import ApiError, JsonResponse
from app.server.routing import ApiRoutes
from app.server.run_views import readable_by, visible_broken_embeds
from app.server.task_routes import etag_matches, extensions_on

router = ApiRoutes()
extension_router = ApiRoutes()


@extension_router.get("/api/me")
def me(request: Request, caller: Caller) -> Response:
    with database(request).read() as tx:
        org_id = tx.meta("org_id")
    return JsonResponse(
        {"id": caller.id, "name": caller.name, "type": caller.type, "org_id": org_id}
    )


@extension_router.get("/api/org/agents")
def org_agents(request: Request, caller: Caller) -> Response:
    with database(request).read() as tx:
        agents = tx.agents()
    return JsonResponse(
        {
            "agents": [
                {"id": a.id, "name": a.name, "guild_id": a.guild_id, "task_version": a.task_version}
                for a in agents
            ]
        }
    )


@extension_router.get("/api/org/guilds")
def org_guilds(request: Request, caller: Caller) -> Response:
    with database(request).read() as tx:
        guilds = tx.guilds()
    return JsonResponse({"guilds": [{"id": gid, "name": name} for gid, name in guilds]})


@router.get("/api/guilds/{guild_id}/embed-status")
def embed_status(guild_id: str, request: Request, caller: Caller) -> Response:
    """Broken embeds inside a note the caller can't read are that note's text: left out."""
    with database(request).read() as tx:
        if not tx.guild_exists(guild_id):
            raise ApiError(404, "no such guild")
        # Extension: the size a run would embed, so the sidebar can mark agents over the
        # budget (docs/API-EXTENSIONS.md).
        rows = _embed_statuses(tx, caller, tx.agents(guild_id), _with_size(request, caller))
    return _status_answer(request, rows)


@extension_router.get("/api/org/embed-status")
def org_embed_status(request: Request, caller: Caller) -> Response:
    """Every guild's embed status in one answer: the app asks once, not once per guild."""
    with database(request).read() as tx:
        rows = _embed_statuses(tx, caller, tx.agents(), _with_size(request, caller))
    return _status_answer(request, rows)


def _status_answer(request: Request, rows: list[dict[str, Any]]) -> Response:
    """The embed status, with an ETag of its bytes (EXTENSION): the app asks on every poll and
    when its window comes forward, and an unchanged answer costs it a 304 and no body."""
    body = orjson.dumps({"agents": rows})
    if not extensions_on(request):
        return Response(body, media_type="application/json")
    etag = '"es-' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": "private, no-cache"}
    if etag_matches(request.headers.get("if-none-match"), etag):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


def _with_size(request: Request, caller: Caller) -> bool:
    """Only for operators: the size counts notes that others may not read."""
    return caller.is_operator and bool(getattr(request.app.state, "extensions", True))


def _embed_statuses(
    tx: Transaction, caller: Caller, agents: list[AgentRecord], with_size: bool = False
) -> list[dict[str, Any]]:
    org_id = tx.meta("org_id")
    readable = readable_by(tx, caller)
    rows: list[dict[str, Any]] = []
    for agent in agents:
        task = tx.task(agent.id, with_revisions=False)
        assert task is not None
        expansion = expand_live_task(tx, agent, task.content)
        broken = visible_broken_embeds(
            expansion.broken, task_display_path(org_id, agent.id), readable
        )
        row: dict[str, Any] = {"id": agent.id, "broken_embeds": broken}
        if with_size:
            row["embedded_bytes"] = expansion.embedded_bytes
        rows.append(row)
    return rows


def _title(file: OrgFile) -> str:
    return file.title or file_stem(file.display_path)


@router.get("/api/org/embeddable-notes")
def embeddable_notes(request: Request, caller: Caller) -> Response:
    """No note text is read; the answer is kept per caller until a note or collection changes
    (EXTENSION: an ETag, so a client that has it gets 304; ``?form=compact``, the same list
    in a third of the bytes; gzip when accepted)."""
    extensions = bool(request.app.state.extensions)
    # Any value is taken and anything but `compact` ignored, so no value is ever refused; a
    # repeated parameter counts by its last value (openapi_doc describes it).
    form = request.query_params.get("form")
    # A spec-only server knows no forms: it answers the spec's list, as any server would.
    chosen: Form = "compact" if extensions and form == COMPACT else "spec"
    bodies: PickerBodies = request.app.state.picker_bodies
    with database(request).read() as tx:
        generation = tx.files_generation()
        # Extension: each entry also carries its access list, so the Insert picker can say
        # which notes the agent being edited can read (docs/API-EXTENSIONS.md). A spec-only
        # server leaves it out.
        key = picker_key(generation, caller, chosen, with_access=extensions)
        kept = bodies.get(key)
        if kept is None:
            rows = bodies.rows(generation)
            if rows is None:
                rows = tx.embeddable_files()
                bodies.keep_rows(generation, rows)
            readable = readable_rows(rows, caller)
            encoded = (
                compact_body(readable) if chosen == "compact" else spec_body(readable, extensions)
            )
            kept = bodies.keep(key, generation, chosen, encoded)
    if not extensions:
        return Response(kept.body, media_type="application/json")
    # The ETag digests the body this caller gets (picker_notes), so a 304 needs the body made
    # once per generation; it is kept, and the check costs a lookup after that.
    headers = {"ETag": kept.etag, "Vary": "Accept-Encoding"}
    if etag_matches(request.headers.get("if-none-match"), kept.etag):
        return Response(status_code=304, headers=headers)
    if chosen == "compact" and accepts_gzip(request.headers.get("accept-encoding")):
        headers["Content-Encoding"] = "gzip"
        return Response(kept.gzipped(), media_type="application/json", headers=headers)
    return Response(kept.body, media_type="application/json", headers=headers)


def note_body(file: OrgFile) -> dict[str, Any]:
    body: dict[str, Any] = {
        "display_path": file.display_path,
        "title": _title(file),
        "kind": file.kind,
        "level": level_of(file.display_path),
        "version": file.version,
        "content_hash": file.content_hash,
    }
    if file.kind == "note":
        body["text"] = file.text or ""
    body["access"] = access_json(file.access)
    return body


@extension_router.get(NOTE_PATH)
def get_note(display_path: str, request: Request, caller: Caller) -> Response:
    with database(request).read() as tx:
        found = tx.file(display_path)
        if found is None or not caller.can_read(found.access):
            raise ApiError(404, "not found")
        body = note_body(found)
        if found.kind == "note":  # a note's earlier texts, newest first (note_revisions)
            body["revisions"] = [
                r.to_json() for r in note_revisions.revisions(tx.conn, display_path)
            ]
    return JsonResponse(body)


@extension_router.delete(NOTE_PATH)
def delete_note(display_path: str, request: Request, caller: Caller) -> Response:
    with database(request).write() as tx:
        org_id = tx.meta("org_id")
        parts = display_path.split("/")
        is_task = len(parts) == 5 and parts[:3] == ["org", org_id, "agents"]
        if is_task and parts[4] == "task.md" and tx.agent(parts[3]) is not None:
            raise ApiError(422, "cannot delete this file")
        found = tx.file(display_path)
        if found is None or not caller.can_read(found.access):
            raise ApiError(404, "not found")
        if not caller.is_operator:
            raise ApiError(422, "only operators can delete notes")
        if found.kind == "file":  # Memory and records belong to their agent, not the picker
            raise ApiError(422, "cannot delete this file")
        try:
            tx.delete_file(display_path, by=caller)
        except FileEmbeddedError as embedded:
            raise ApiError(
                409, f"note is embedded in task ({', '.join(embedded.agent_ids)})"
            ) from None
    return Response(status_code=204)
