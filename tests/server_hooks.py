"""Fault injection for tests: the reference server mounts it through ``configure=`` only.

Tests make the real server misbehave through these routes instead of mocking anything.
None of them needs a token. Each rule applies to API requests (``/api/…``) only, and a
``path`` (a prefix, e.g. ``/api/agents/a_scout/files``) and ``method`` narrow it further.

``POST /__test__/delay {"seconds": 1.5, "after": false, "path"?, "method"?}``
    Slow every matching request by ``seconds`` before it is handled; with ``"after": true``
    the request is handled first (a save lands) and the response waits. 0 clears it.
``POST /__test__/fail {"status": 503, "count": 2, "retry_after": 2, "error"?, "path"?, "method"?}``
    The next ``count`` matching requests get ``status`` with ``{"error": error}`` (default
    ``service unavailable``) and, when given, a ``Retry-After`` header. Nothing is handled.
``POST /__test__/cut {"count": 1, "path"?, "method"?}``
    The next ``count`` matching requests are handled (a save lands), then the connection is
    closed after the headers and half the body: the client cannot know what happened.
``PUT /__test__/notes/<display_path> {"kind"?, "title"?, "text"?, "access"?}``
    Create or replace a note (``kind`` note, collection or file); a replaced one's version
    goes up by one. 200 with the note as ``GET /api/notes/…`` shows it to an operator.
``POST /__test__/reset``
    Clear every delay, failure and cut.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.models import AccessEntry, OrgFile
from app.server.auth import database
from app.server.callers import SEED_AUTHOR
from app.server.org_routes import note_body
from app.server.responses import ApiError, JsonResponse, error_response
from app.server.routing import ApiRoutes

HOOK_PREFIX = "/__test__/"


class ConnectionCutError(Exception):
    """Raised after half a response so the HTTP server drops the connection."""


@dataclass
class _Rule:
    path: str = ""
    method: str = ""
    count: int = 0

    def matches(self, method: str, path: str) -> bool:
        return path.startswith(self.path) and (not self.method or self.method == method)


@dataclass
class FaultPlan:
    """The faults in force; shared by the hook routes and the middleware."""

    delay: float = 0.0
    delay_after: bool = False
    delay_rule: _Rule = field(default_factory=_Rule)
    fail_status: int = 503
    fail_error: str = "service unavailable"
    fail_retry_after: str | None = None
    fail_rule: _Rule = field(default_factory=_Rule)
    cut_rule: _Rule = field(default_factory=_Rule)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def reset(self) -> None:
        with self.lock:
            self.delay, self.delay_after, self.delay_rule = 0.0, False, _Rule()
            self.fail_rule, self.cut_rule = _Rule(), _Rule()

    def delay_for(self, method: str, path: str) -> tuple[float, bool]:
        with self.lock:
            if self.delay > 0 and self.delay_rule.matches(method, path):
                return self.delay, self.delay_after
            return 0.0, False

    @staticmethod
    def _take(rule: _Rule, method: str, path: str) -> bool:
        if rule.count > 0 and rule.matches(method, path):
            rule.count -= 1
            return True
        return False

    def take_failure(self, method: str, path: str) -> bool:
        with self.lock:
            return self._take(self.fail_rule, method, path)

    def take_cut(self, method: str, path: str) -> bool:
        with self.lock:
            return self._take(self.cut_rule, method, path)


class FaultInjection:
    """ASGI middleware that applies the plan to API requests."""

    def __init__(self, app: ASGIApp, plan: FaultPlan) -> None:
        self.app = app
        self.plan = plan

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        method, path = scope["method"], scope["path"]
        delay, after = self.plan.delay_for(method, path)
        if delay and not after:
            await anyio.sleep(delay)
        if self.plan.take_failure(method, path):
            headers = {}
            if self.plan.fail_retry_after is not None:
                headers["Retry-After"] = self.plan.fail_retry_after
            response = error_response(self.plan.fail_status, self.plan.fail_error, headers=headers)
            await response(scope, receive, send)
            return
        cut = self.plan.take_cut(method, path)
        if not cut and not (delay and after):
            await self.app(scope, receive, send)
            return
        messages: list[Message] = []

        async def keep(message: Message) -> None:
            messages.append(message)

        await self.app(scope, receive, keep)
        if delay and after:
            await anyio.sleep(delay)
        if not cut:
            for message in messages:
                await send(message)
            return
        body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body")
        await send(messages[0])
        await send(
            {"type": "http.response.body", "body": body[: len(body) // 2], "more_body": True}
        )
        raise ConnectionCutError("test hook: connection cut mid-response")


class _QuietCuts(logging.Filter):
    """Keeps the HTTP server from logging a traceback for every deliberate cut."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], ConnectionCutError))


def _rule(body: dict[str, Any], count: int = 0) -> _Rule:
    path, method = body.get("path", ""), body.get("method", "")
    if not isinstance(path, str) or not isinstance(method, str):
        raise ApiError(422, "path and method must be strings")
    return _Rule(path=path, method=method.upper(), count=count)


def _number(body: dict[str, Any], key: str, default: float) -> float:
    value = body.get(key, default)
    if type(value) not in (int, float) or value < 0:
        raise ApiError(422, f"{key} must be a number of at least 0")
    return float(value)


def install_test_hooks(app: Starlette) -> None:
    """Mount the hook routes and the middleware, which share one plan (``app.state.fault_plan``)."""
    plan = FaultPlan()
    logging.getLogger("uvicorn.error").addFilter(_QuietCuts())
    hooks = ApiRoutes(include_in_schema=False)  # no token: a hook is no part of the API

    @hooks.post("/__test__/delay", needs_caller=False, reads_body=True)
    def set_delay(request: Request, body: dict[str, Any]) -> Response:
        seconds = _number(body, "seconds", 0)
        rule = _rule(body)
        with plan.lock:
            plan.delay, plan.delay_after, plan.delay_rule = seconds, bool(body.get("after")), rule
        return JsonResponse({"delay": seconds})

    @hooks.post("/__test__/fail", needs_caller=False, reads_body=True)
    def set_failure(request: Request, body: dict[str, Any]) -> Response:
        status = body.get("status", 503)
        if type(status) is not int or not 400 <= status <= 599:
            raise ApiError(422, "status must be an integer from 400 to 599")
        retry_after = body.get("retry_after")
        count = int(_number(body, "count", 1))
        with plan.lock:
            plan.fail_status = status
            plan.fail_error = str(body.get("error", "service unavailable"))
            plan.fail_retry_after = None if retry_after is None else str(retry_after)
            plan.fail_rule = _rule(body, count)
        return JsonResponse({"fail": count})

    @hooks.post("/__test__/cut", needs_caller=False, reads_body=True)
    def set_cut(request: Request, body: dict[str, Any]) -> Response:
        count = int(_number(body, "count", 1))
        with plan.lock:
            plan.cut_rule = _rule(body, count)
        return JsonResponse({"cut": count})

    @hooks.post("/__test__/reset", needs_caller=False)
    def reset(request: Request) -> Response:
        plan.reset()
        return JsonResponse({"reset": True})

    @hooks.put("/__test__/notes/{display_path:path}", needs_caller=False, reads_body=True)
    def put_note(display_path: str, request: Request, body: dict[str, Any]) -> Response:
        kind = body.get("kind", "note")
        if kind not in ("note", "collection", "file"):
            raise ApiError(422, "kind must be note, collection or file")
        access = tuple(
            AccessEntry(str(e["principal"]), str(e["role"])) for e in body.get("access", [])
        )
        file = OrgFile(
            display_path,
            kind,
            title=str(body.get("title", "")),
            text=str(body.get("text", "")) if kind == "note" else None,
            access=access,
        )
        with database(request).write() as tx:
            stored = tx.put_file(file, by=SEED_AUTHOR)
        return JsonResponse(note_body(stored))

    app.router.routes.extend(hooks.routes)
    app.add_middleware(FaultInjection, plan=plan)
    app.state.fault_plan = plan
    app.state.kept_reads = False  # every request meets the faults, none is answered in front
