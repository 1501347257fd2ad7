"""The Task GET whose answer is kept for the live version, sent in front of the framework.

task.md is what every client reads most (each open Task, each poll), and its answer changes
only with a save (``task_answers``). Sending a kept answer takes a token lookup, one indexed
row and the bytes; through Starlette's exception layers, the router, a ``Request`` and the
three middlewares it took four times that. So this ASGI layer, outermost, answers exactly
that case itself and hands everything else (another route, another query string, an
``If-None-Match``, a body, no kept answer, an unknown token, any error) to the app unchanged,
which answers it as before. What is sent is byte for byte the app's own answer: the same
head (``answer_head``) and the ``Server-Timing`` header (tests/server/test_kept_reads.py).

A server with the tests' fault hooks mounted (``app.state.kept_reads`` False) sends every
request through the app, where the hooks are.
"""

from __future__ import annotations

import sqlite3
from time import perf_counter

from starlette.datastructures import State
from starlette.types import ASGIApp, Receive, Scope, Send

from app.server.auth import authorization_of, bearer_token
from app.server.database import DatabaseError
from app.server.in_front import InFront
from app.server.server_timing import HEADER, timing_value
from app.server.task_answers import WHOLE_BYTES, TaskView, answer_head
from app.server.task_revision_records import live_stamp

SUMMARY_QUERY = b"revisions=summary"
"""The one query string answered here (``task_view``'s summary); any other is the app's."""

_PASSED_ON = frozenset((b"if-none-match", b"content-length", b"transfer-encoding"))
"""Headers that make the request the app's: a conditional GET, a GET with a body."""


class KeptReads:
    """ASGI app in front of the API ``app``: kept task.md answers here, the rest there.

    What it needs of the app's ``state`` is read when it is made, so it is made last, once
    the app is whole (``server_config``)."""

    def __init__(self, app: ASGIApp, state: State) -> None:
        self.app = app
        self.front = InFront.of(state)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        agent_id = self.front.task_agent(scope, "GET")
        if agent_id is not None and await self._sent(scope, agent_id, send):
            return
        await self.app(scope, receive, send)

    async def _sent(self, scope: Scope, agent_id: str, send: Send) -> bool:
        """Whether the kept answer was sent; False (nothing sent) leaves it to the app."""
        started = perf_counter()
        query = scope.get("query_string", b"")
        front = self.front
        if not query:
            view = front.plain_view
        elif query == SUMMARY_QUERY and front.extensions:
            view = TaskView.SUMMARY  # what the app itself reads where the server offers it
        else:
            return False
        if any(name in _PASSED_ON for name, _ in scope["headers"]):
            return False
        token = bearer_token(authorization_of(scope))
        if token is None:
            return False  # the app's 401
        try:
            # One connection for both point reads (no snapshot needed: auth, then the stamp).
            with front.db.loop_read() as tx:
                if tx.caller_for_token(token) is None:
                    return False
                stamp = live_stamp(tx.conn, agent_id)
        except (sqlite3.Error, OSError, DatabaseError):  # the app meets it again and answers
            return False
        answer = front.answers.current(agent_id, view, stamp) if stamp is not None else None
        if answer is None or len(answer.body) > WHOLE_BYTES:
            return False  # built by the app, or sent by it a slice at a time
        if front.book is not None:
            front.book.authenticated(scope.get("client"))
        headers = [*answer_head(answer, view), (HEADER, timing_value(perf_counter() - started))]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": answer.body})
        return True
