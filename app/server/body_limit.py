"""Reads every request body before the routes do: bounded, and quiet when the client goes away.

A body larger than ``MAX_BODY_BYTES`` is refused with 413 ``request body too large`` from its
``Content-Length`` alone (nothing of it is read), or, without one (chunked), as soon as what
has arrived passes the limit. Both happen before routing, so before the token is looked up
or a write is checked: a caller who may not write cannot make the server hold 100 MB.
A client that disconnects while sending its body costs one INFO line, never a traceback.
"""

from __future__ import annotations

import logging

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.limits import TASK_MAX_BYTES
from app.server.responses import error_response

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 6 * TASK_MAX_BYTES + 4096
"""The largest JSON a legal save can take: a 256 KB Task of control characters escaped as
``\\u00XX`` is six times its size, plus the other fields. No legal save is ever refused."""

TOO_LARGE = "request body too large"

CHANGE_SET_MAX_BODY_BYTES = 24 * 1024 * 1024
"""A change set carries many Tasks: 1,000 changes of 2 KB each, even escaped six times over,
fit (API.md "The fleet"). Only its one path takes more than a single save."""

LARGER_BODIES = {("POST", "/api/org/change-sets"): CHANGE_SET_MAX_BODY_BYTES}


def declared_length(scope: Scope) -> int | None:
    """The request's ``Content-Length`` (the HTTP server has already checked it is a number)."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class BodyLimit:
    """ASGI middleware: the body whole and within the limit, or a 413 and nothing read."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = max(self.max_bytes, LARGER_BODIES.get((scope["method"], scope["path"]), 0))
        declared = declared_length(scope)
        if declared is not None and declared > limit:
            await self._refuse(scope, receive, send)
            return
        chunks: list[bytes] = []
        total = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                log.info(
                    "%s %s: the client went away before its request body arrived",
                    scope["method"],
                    scope["path"],
                )
                return
            body = message.get("body", b"")
            total += len(body)
            if total > limit:
                await self._refuse(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole: Message | None = {"type": "http.request", "body": b"".join(chunks)}

        async def replay() -> Message:
            nonlocal whole
            if whole is not None:
                message, whole = whole, None
                return message
            return await receive()  # after the body, only a disconnect can come

        await self.app(scope, replay, send)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send) -> None:
        # The rest of the body is never read, so the connection cannot carry another request.
        response = error_response(413, TOO_LARGE, headers={"Connection": "close"})
        await response(scope, receive, send)
