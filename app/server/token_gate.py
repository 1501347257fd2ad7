"""Checks the token from a request's head, before any of its body is read or routed.

A request to a route that needs a caller and names none that is known gets 401 at once,
from the head alone, and its connection is closed: nothing of the body is read, and a
client without a token cannot keep a connection (and so a place under the connection cap)
by asking again and again. Every 401, from here or a route, closes its connection the same
way. A valid token marks the connection as authenticated in the ``ConnectionBook``, so the
connection cap never makes room for others by closing it while it is busy.
"""

from __future__ import annotations

from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.server.auth import CALLER_KEY, UNAUTHORIZED, authorization_of, caller_for_authorization
from app.server.http_guard import ConnectionBook
from app.server.responses import error_response
from app.server.routing import ApiRoute


class TokenGate:
    """ASGI middleware: 401 and close for a request without a valid token, from its head."""

    def __init__(self, app: ASGIApp, book: ConnectionBook | None = None) -> None:
        self.app = app
        self.book = book

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if _needs_caller(scope):
            state = scope["app"].state
            caller = await caller_for_authorization(state, authorization_of(scope))
            if caller is None:
                response = error_response(
                    401,
                    UNAUTHORIZED,
                    headers={"WWW-Authenticate": "Bearer", "Connection": "close"},
                )
                await response(scope, receive, send)
                return
            scope[CALLER_KEY] = caller  # the route's caller: looked up once per request
            book = self.book or getattr(state, "connection_book", None)
            if book is not None:
                book.authenticated(scope.get("client"))
        await self.app(scope, receive, _closing_after_401(send))


def _needs_caller(scope: Scope) -> bool:
    """Whether the route this request goes to (path and method) needs a caller."""
    for route in scope["app"].router.routes:
        if isinstance(route, ApiRoute):
            match, _ = route.matches(scope)
            if match is Match.FULL:
                return route.needs_caller
    return False


def _closing_after_401(send: Send) -> Send:
    """``send`` with ``Connection: close`` added to a 401 from a route."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start" and message["status"] == 401:
            headers = [(k, v) for k, v in message.get("headers", []) if k != b"connection"]
            message = {**message, "headers": [*headers, (b"connection", b"close")]}
        await send(message)

    return sending
