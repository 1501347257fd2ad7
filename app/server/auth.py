"""Bearer-token authentication: every API route needs a caller of the org."""

from __future__ import annotations

from starlette.requests import Request

from app.server.callers import Caller
from app.server.database import ServerDatabase
from app.server.responses import ApiError

UNAUTHORIZED = "unauthorized"
"""The 401 message, kept stable for clients: a missing, malformed or unknown token."""


def database(request: Request) -> ServerDatabase:
    db: ServerDatabase = request.app.state.db
    return db


async def current_caller(request: Request) -> Caller:
    """The caller named by ``Authorization: Bearer <token>``; 401 for anything else."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ApiError(401, UNAUTHORIZED, headers={"WWW-Authenticate": "Bearer"})
    # Tokens never change while the server runs, so a known one skips the database.
    cache: dict[str, Caller] = request.app.state.callers
    caller = cache.get(token)
    if caller is None:
        with database(request).read() as tx:
            caller = tx.caller_for_token(token)
        if caller is None:
            raise ApiError(401, UNAUTHORIZED, headers={"WWW-Authenticate": "Bearer"})
        cache[token] = caller
    return caller
