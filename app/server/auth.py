"""Bearer-token authentication: every API route needs a caller of the org."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.types import Scope

from app.server.callers import Caller
from app.server.db_open import Database
from app.server.responses import ApiError

UNAUTHORIZED = "unauthorized"
"""The 401 message, kept stable for clients: a missing, malformed or unknown token."""

CALLER_KEY = "taskdesk.caller"
"""Where the token gate leaves the caller it found in the request's scope, for the route."""


def database(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


async def caller_for_authorization(state: Any, authorization: str) -> Caller | None:
    """The caller an ``Authorization`` header names (``Bearer <token>``), or None.

    Looked up on every request, never cached: ``taskdesk admin`` may revoke a token while the
    server runs, on any of its processes, and the next request must be refused. On SQLite the
    lookup is one indexed point read (WAL: a reader never waits for a writer), so it runs on
    the event loop; a PostgreSQL round trip runs in a thread."""
    token = bearer_token(authorization)
    if token is None:
        return None
    db: Database = state.db
    if db.on_loop:
        with db.loop_read() as tx:
            on_loop: Caller | None = tx.caller_for_token(token)
        return on_loop
    return await run_in_threadpool(_caller_for_token, db, token)


def authorization_of(scope: Scope) -> str:
    """The request's first ``Authorization`` header ("" for none): the one the token gate and
    the layers in front of the app (``in_front``) all look up, as Starlette's headers do."""
    for key, value in scope.get("headers", ()):
        if key == b"authorization":
            return bytes(value).decode("latin-1")
    return ""


def bearer_token(authorization: str) -> str | None:
    """The token of ``Bearer <token>``; None for any other header."""
    scheme, _, token = authorization.partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def _caller_for_token(db: Database, token: str) -> Caller | None:
    with db.point_read() as tx:  # a token is a person's or an agent's: no snapshot needed
        caller: Caller | None = tx.caller_for_token(token)
    return caller


async def current_caller(request: Request) -> Caller:
    """The caller named by ``Authorization: Bearer <token>``; 401 for anything else. The token
    gate has looked it up already for every route that needs a caller."""
    caller = request.scope.get(CALLER_KEY)
    if caller is None:
        caller = await caller_for_authorization(
            request.app.state, request.headers.get("authorization", "")
        )
    if caller is None:
        raise ApiError(401, UNAUTHORIZED, headers={"WWW-Authenticate": "Bearer"})
    assert isinstance(caller, Caller)
    return caller
