"""Bearer-token authentication: every API route needs a caller of the org."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from app.server.callers import Caller
from app.server.db_open import Database
from app.server.responses import ApiError

UNAUTHORIZED = "unauthorized"
"""The 401 message, kept stable for clients: a missing, malformed or unknown token."""


def database(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


async def current_caller(request: Request) -> Caller:
    """The caller named by ``Authorization: Bearer <token>``; 401 for anything else."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ApiError(401, UNAUTHORIZED, headers={"WWW-Authenticate": "Bearer"})
    # Looked up on every request, not cached: `taskdesk admin` may revoke a token while
    # the server runs, on any of its processes, and the next request must be refused.
    caller = await run_in_threadpool(_caller_for_token, database(request), token)
    if caller is None:
        raise ApiError(401, UNAUTHORIZED, headers={"WWW-Authenticate": "Bearer"})
    return caller


def _caller_for_token(db: Database, token: str) -> Caller | None:
    with db.read() as tx:
        caller: Caller | None = tx.caller_for_token(token)
    return caller
