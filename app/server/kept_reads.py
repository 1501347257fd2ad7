"""The Task GET whose answer is kept for the live version, sent in front of the framework.

task.md is what every client reads most (each open Task, each poll), and its answer changes
only with a save (``task_answers``). Sending a kept answer takes a token lookup, one indexed
row and the bytes; through Starlette's exception layers, the router, a ``Request`` and the
three middlewares it took four times that. So this ASGI layer, outermost, answers exactly
that case itself and hands everything else (another route, another query string, an
``If-None-Match``, a body, no kept answer, an unknown token, any error) to the app unchanged,
which answers it as before. What is sent is byte for byte the app's own answer: the same
``SharedBody`` headers and the ``Server-Timing`` header (tests/server/test_kept_reads.py).

A server with the tests' fault hooks mounted (``app.state.kept_reads`` False) sends every
request through the app, where the hooks are.
"""

from __future__ import annotations

import re
import sqlite3
from time import perf_counter

from starlette.datastructures import State
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.server.auth import caller_for_token_on_loop
from app.server.database import DatabaseError
from app.server.server_timing import HEADER, timing_value
from app.server.task_answers import TaskView
from app.server.task_revision_records import live_stamp
from app.server.task_routes import answer_response

TASK_GET = re.compile(r"/api/agents/([^/]+)/files/task\.md")
"""The spec's task.md path, as the route matches it (``{agent_id}`` is one path segment)."""

SUMMARY_QUERY = b"revisions=summary"
"""The one query string answered here (``task_view``'s summary); any other is the app's."""

_PASSED_ON = frozenset((b"if-none-match", b"content-length", b"transfer-encoding"))
"""Headers that make the request the app's: a conditional GET, a GET with a body."""


class KeptReads:
    """ASGI app in front of the API ``app`` (whose ``state`` it reads): kept task.md answers
    here, the rest there."""

    def __init__(self, app: ASGIApp, state: State) -> None:
        self.app = app
        self.state = state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET" and not scope.get("root_path"):
            match = TASK_GET.fullmatch(scope["path"])
            if match is not None and await self._sent(scope, match.group(1), send):
                return
        await self.app(scope, receive, send)

    async def _sent(self, scope: Scope, agent_id: str, send: Send) -> bool:
        """Whether the kept answer was sent; False (nothing sent) leaves it to the app."""
        started = perf_counter()
        state = self.state
        if not getattr(state, "kept_reads", True):
            return False
        extensions = getattr(state, "extensions", True)
        query = scope.get("query_string", b"")
        if not query:
            view = TaskView.FULL if extensions else TaskView.SPEC
        elif query == SUMMARY_QUERY and extensions:
            view = TaskView.SUMMARY  # what the app itself reads where the server offers it
        else:
            return False
        authorization = ""
        for name, value in scope["headers"]:
            if name == b"authorization":
                authorization = value.decode("latin-1")
            elif name in _PASSED_ON:
                return False
        try:
            caller = caller_for_token_on_loop(state.db, authorization)
            if caller is None:
                return False  # no caller, or one to look up off the loop: the app's 401 or not
            with state.db.point_read() as tx:
                stamp = live_stamp(tx.conn, agent_id)
        except (sqlite3.Error, OSError, DatabaseError):  # the app meets it again and answers
            return False
        if stamp is None:
            return False
        answer = state.task_answers.current(agent_id, view, stamp)
        if answer is None:
            return False
        book = getattr(state, "connection_book", None)
        if book is not None:
            book.authenticated(scope.get("client"))

        async def timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message["headers"], (HEADER, timing_value(perf_counter() - started))]
                message = {**message, "headers": headers}
            await send(message)

        await answer_response(answer, view)(scope, _no_body, timed)
        return True


async def _no_body() -> Message:
    return {"type": "http.request", "body": b"", "more_body": False}
