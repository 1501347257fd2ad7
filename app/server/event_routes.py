"""The live events and presence endpoints (EXTENSION): ``GET /api/events``, ``POST /api/presence``.

``GET /api/events`` is a text/event-stream of what the caller may know of as it happens:
``task_saved``, ``proposal`` (people only), ``note_saved`` (notes the caller can read) and
``presence`` (people only), a comment at least every 15 s. It resumes after
``Last-Event-ID`` (the header, or ``?last_event_id=`` for clients that can't set it), else
starts from now; ``?once=1`` sends what there is and closes (scripts, tests). A stream looks
again whenever this process is rung (a write here; on PostgreSQL any process's commit,
through LISTEN/NOTIFY) and at least every ``POLL_S`` seconds, and checks its token each
time: a revoked token's stream ends within that.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from app.server.auth import database
from app.server.callers import Caller
from app.server.db_open import Database
from app.server.live_events import (
    KEEP_ALIVE,
    EventWake,
    PresenceKey,
    StreamEvent,
    events_of,
    presence_changes,
)
from app.server.org_log import events_after
from app.server.presence_records import Presence, present, record_presence
from app.server.responses import ApiError
from app.server.routing import ApiRoutes

extension_router = ApiRoutes()

POLL_S = 2.0  # the longest a stream goes without looking (presence lapses, revoked tokens)
KEEP_ALIVE_S = 10.0  # a comment at least this often: proxies and clients see it alive
BATCH = 500
RETRY_MS = 2000


def _resume_after(request: Request) -> int | None:
    raw = request.headers.get("last-event-id") or request.query_params.get("last_event_id")
    if raw is None or raw == "":
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        raise ApiError(422, "Last-Event-ID must be an event id")
    return int(raw)


def _newest_id(db: Database) -> int:
    with db.read() as tx:
        row = tx.conn.execute("SELECT MAX(id) FROM org_events").fetchone()
    return int(row[0]) if row and row[0] is not None else 0


@extension_router.get("/api/events")
def live_events(request: Request, caller: Caller) -> Response:
    """What happens in the org as it happens, as server-sent events (EXTENSION)."""
    db = database(request)
    after = _resume_after(request)
    once = request.query_params.get("once") in ("1", "true")
    token = request.headers.get("authorization", "").partition(" ")[2].strip()
    start = after if after is not None else _newest_id(db)
    wake: EventWake = request.app.state.event_wake
    return StreamingResponse(
        _stream(db, wake, caller, token, start, once=once),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


class _Cursor:
    """Where one stream is: the last log row sent and the presence it last told."""

    def __init__(self, after: int) -> None:
        self.after = after
        self.seen: dict[PresenceKey, Presence] = {}
        self.more = False


def _look(db: Database, caller: Caller, token: str, cursor: _Cursor) -> list[StreamEvent] | None:
    """The events since the cursor, the cursor moved on; None when the token is revoked."""
    with db.read() as tx:
        if tx.caller_for_token(token) is None:
            return None
        rows = events_after(tx.conn, cursor.after, limit=BATCH)
        readable: dict[str, bool] = {}

        def can_read(path: str) -> bool:
            if path not in readable:
                found = tx.file(path)
                readable[path] = found is not None and caller.can_read(found.access)
            return readable[path]

        events = [event for row in rows for event in events_of(row, caller, can_read)]
        if rows:
            cursor.after = rows[-1].id
        cursor.more = len(rows) == BATCH
        if caller.type != "agent":
            changes, cursor.seen = presence_changes(cursor.seen, present(tx))
            events += changes
    return events


async def _stream(
    db: Database, wake: EventWake, caller: Caller, token: str, after: int, *, once: bool
) -> AsyncIterator[bytes]:
    cursor = _Cursor(after)
    yield f"retry: {RETRY_MS}\n\n".encode()
    told = time.monotonic()
    while True:
        generation = wake.generation
        events = await run_in_threadpool(_look, db, caller, token, cursor)
        if events is None:
            return  # the token was revoked: the stream ends, and a reconnect gets 401
        if events:
            yield b"".join(event.encoded() for event in events)
            told = time.monotonic()
        if once and not cursor.more:
            return
        if cursor.more:
            continue
        await wake.wait(generation, POLL_S)
        if time.monotonic() - told >= KEEP_ALIVE_S:
            yield KEEP_ALIVE
            told = time.monotonic()


@extension_router.post("/api/presence", reads_body=True)
def post_presence(request: Request, caller: Caller, body: dict[str, Any]) -> Response:
    """A person is looking at (``editing`` false) or editing a Task; lapses after 60 s
    (EXTENSION)."""
    if caller.type == "agent":
        raise ApiError(422, "task is not writable")
    agent_id = body.get("agent_id")
    if not isinstance(agent_id, str):
        raise ApiError(422, "agent_id must be a string")
    editing = body.get("editing", False)
    if not isinstance(editing, bool):
        raise ApiError(422, "editing must be true or false")
    with database(request).write() as tx:
        if tx.agent(agent_id) is None:
            raise ApiError(404, "no such agent")
        record_presence(tx, agent_id, caller, editing=editing)
    return Response(status_code=204)
