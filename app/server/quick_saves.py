"""A small Task save by an operator, made and answered in front of the framework.

Under load a save's own work (its savepoint in the turn's gathered transaction,
``loop_writes``) was a third of what the server spent on it: Starlette's exception layers,
the router (twice, with the token gate's look at the route), a ``Request`` and three
middlewares took the rest. So this ASGI layer, in front of the app as ``kept_reads`` is for
GETs, makes exactly the common case itself: a PUT of task.md without a query string, a
valid operator's token and a ``Content-Length`` of a small body, which is a JSON object
asking a save of at most ``SAVE_AT_ONCE_BYTES``, made on the loop and answered 200.

Everything else is the app's, which answers it as before:
- before the body is read (another route or method, a query string, no or another token, a
  caller who is not an operator, a chunked or larger body): handed over untouched;
- after (a body that is not such a JSON object, a save refused with a 404 or 409, a write
  held or failed): handed over with what was read given to it again, so it reads the same
  body and answers (a refused save is tried again there, and its answer is the app's own).
Only a made save is answered here: its head is ``answer_head`` and the ``Server-Timing``
header, byte for byte what the app sends (tests/server/test_quick_saves.py).

A server with the tests' fault hooks mounted (``app.state.kept_reads`` False) sends every
request through the app, where the hooks are.
"""

from __future__ import annotations

import sqlite3
from time import perf_counter
from typing import Any

import orjson
from starlette.datastructures import State
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.server.auth import authorization_of, bearer_token
from app.server.callers import Caller
from app.server.database import DatabaseError
from app.server.in_front import InFront
from app.server.loop_writes import LoopWrites
from app.server.responses import ApiError
from app.server.server_timing import HEADER, timing_value
from app.server.task_answers import answer_head
from app.server.task_saves import SAVE_AT_ONCE_BYTES, AskedSave, asked_save, saved_on_loop

BODY_AT_MOST = 6 * SAVE_AT_ONCE_BYTES + 4096
"""The largest body read here: a save of SAVE_AT_ONCE_BYTES of text escaped as ``\\u00XX``
throughout, plus the other fields. A larger body goes to the app unread."""

_PASSED_ON = frozenset((b"transfer-encoding", b"if-match", b"if-none-match"))
"""Headers that make the request the app's: a chunked body, a conditional request."""


class QuickSaves:
    """ASGI app in front of the API ``app``: small operator saves of task.md here, the rest there.

    What it needs of the app's ``state`` is read when it is made, so it is made once the app
    is whole (``server_config``)."""

    def __init__(self, app: ASGIApp, state: State) -> None:
        self.app = app
        self.front = InFront.of(state)
        self.writes: LoopWrites = state.loop_writes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        agent_id = self.front.task_agent(scope, "PUT")
        if agent_id is not None and not scope.get("query_string"):
            await self._save(scope, receive, send, agent_id)
            return
        await self.app(scope, receive, send)

    async def _save(self, scope: Scope, receive: Receive, send: Send, agent_id: str) -> None:
        started = perf_counter()
        caller = self._operator(scope)
        if caller is None:
            await self.app(scope, receive, send)  # nothing read: the app answers it whole
            return
        book = self.front.book
        if book is not None:  # as the token gate does: never closed while busy
            book.authenticated(scope.get("client"))
        read: list[Message] = []
        while True:
            message = await receive()
            read.append(message)
            if message["type"] != "http.request" or not message.get("more_body", False):
                break
        asked = self._asked(agent_id, caller, read)
        parts = None
        if asked is not None:
            try:
                parts = await saved_on_loop(self.writes, asked)
            except (ApiError, sqlite3.Error, OSError, DatabaseError):
                parts = None  # refused or failed: the app tries it again and answers
        if parts is None:
            await self.app(scope, _replaying(read, receive), send)
            return
        answer = parts.encode(self.front.answers)
        headers = [
            *answer_head(answer, parts.view),
            (HEADER, timing_value(perf_counter() - started)),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": answer.body})

    def _operator(self, scope: Scope) -> Caller | None:
        """The operator the request's token names, when its body is small and declared; else
        None (the app's)."""
        length = -1
        for name, value in scope["headers"]:
            if name == b"content-length":
                length = int(value) if value.isdigit() else -1
            elif name in _PASSED_ON:
                return None
        token = bearer_token(authorization_of(scope))
        if token is None or not 0 <= length <= BODY_AT_MOST:
            return None
        try:
            with self.front.db.loop_read() as tx:
                caller: Caller | None = tx.caller_for_token(token)
        except (sqlite3.Error, OSError, DatabaseError):  # the app meets it again and answers
            return None
        return caller if caller is not None and caller.is_operator else None

    def _asked(self, agent_id: str, caller: Caller, read: list[Message]) -> AskedSave | None:
        """The save the body asks for, when it is one made here; else None (the app's)."""
        if read[-1]["type"] != "http.request":
            return None  # the client went away: the app notes it
        try:
            body: Any = orjson.loads(b"".join(m.get("body", b"") for m in read))
        except orjson.JSONDecodeError:
            return None
        if not isinstance(body, dict):
            return None
        front = self.front
        try:
            save = asked_save(caller, body, extensions=front.extensions)
        except ApiError:
            return None
        if save.size > SAVE_AT_ONCE_BYTES:
            return None
        return AskedSave(agent_id, caller, save, front.plain_view, front.answers, front.extensions)


def _replaying(read: list[Message], receive: Receive) -> Receive:
    """``receive`` that gives the messages ``read`` already took first, then its own."""
    pending = list(read)

    async def replay() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replay
