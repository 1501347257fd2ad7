"""Adds ``Server-Timing: app;dur=…`` to every answer: the server's own time on the request.

Measured from when the request reaches the app (before the token is checked or the body
read) to when the answer's head is sent: for every answer but the event stream the body is
whole by then (a ``Response`` is built before it starts), so this is the time the server
spent working, without the network and without the client reading the body. Tools show the
header (browsers' network panels, ``curl -i``); the benchmarks read it.
"""

from __future__ import annotations

from time import perf_counter

from starlette.types import ASGIApp, Message, Receive, Scope, Send

HEADER = b"server-timing"


def timing_value(seconds: float) -> bytes:
    """The header's value for ``seconds`` of work, in milliseconds to a tenth."""
    return b"app;dur=%.1f" % (seconds * 1000)


class ServerTiming:
    """ASGI middleware: the time from the request's arrival to its answer's head, as a header."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = perf_counter()

        async def timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                # A new list: a kept answer's headers are sent again by the next request.
                headers = [
                    *message.get("headers", ()),
                    (HEADER, timing_value(perf_counter() - started)),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, timed)
