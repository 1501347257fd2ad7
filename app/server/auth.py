"""Bearer-token authentication: every API route needs a caller of the org."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from app.server.callers import Caller
from app.server.database import ServerDatabase
from app.server.responses import ApiError

UNAUTHORIZED = "unauthorized"
"""The 401 message, kept stable for clients: a missing, malformed or unknown token."""


def database(request: Request) -> ServerDatabase:
    db: ServerDatabase = request.app.state.db
    return db


def caller_for_authorization(state: Any, authorization: str) -> Caller | None:
    """The caller an ``Authorization`` header names (``Bearer <token>``), or None.

    ``state`` is the app's state: its database and the cache of tokens already seen."""
    scheme, _, token = authorization.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    # Tokens never change while the server runs, so a known one skips the database.
    cache: dict[str, Caller] = state.callers
    caller = cache.get(token)
    if caller is None:
        db: ServerDatabase = state.db
        with db.read() as tx:
            caller = tx.caller_for_token(token)
        if caller is None:
            return None
        cache[token] = caller
    return caller


async def current_caller(request: Request) -> Caller:
    """The caller named by ``Authorization: Bearer <token>``; 401 for anything else."""
    caller = caller_for_authorization(request.app.state, request.headers.get("authorization", ""))
    if caller is None:
        raise ApiError(401, UNAUTHORIZED, headers={"WWW-Authenticate": "Bearer"})
    return caller
