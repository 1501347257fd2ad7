"""The API's routes on Starlette: the token checked, the body read, the handler in a thread.

A route may also have an ``at_once`` handler, run on the event loop before the thread hop:
for the answers that need no more than a point read (a kept answer, a 304) or a small write
SQLite can make without waiting, where the hop itself would be much of the time. It returns
None to send the request on to the handler in its thread."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from app.server.auth import current_caller
from app.server.request_body import json_object_body

Handler = Callable[..., Response]
"""``handler(request=…, <path parameters>…, caller=…, body=…)``: keyword arguments only."""

QuickHandler = Callable[..., Response | Awaitable[Response | None] | None]
"""An ``at_once`` handler: the same arguments; None when the thread's handler must answer. It
may hand back an awaitable (a save waiting its turn on the loop), awaited on the loop."""


def endpoint(
    handler: Handler,
    *,
    needs_caller: bool,
    reads_body: bool,
    at_once: QuickHandler | None = None,
) -> Callable[[Request], Awaitable[Response]]:
    """The Starlette endpoint for ``handler``: the caller first (401 before anything of the body
    is looked at), then the JSON object body (422), then the handler in a worker thread, since
    every handler waits on SQLite and the event loop must keep serving meanwhile."""

    async def run(request: Request) -> Response:
        arguments: dict[str, Any] = dict(request.path_params)
        if needs_caller:
            arguments["caller"] = await current_caller(request)
        if reads_body:
            arguments["body"] = await json_object_body(request)
        if at_once is not None:
            answer = at_once(request=request, **arguments)
            if inspect.isawaitable(answer):
                answer = await answer
            if answer is not None:
                return answer
        return await run_in_threadpool(handler, request=request, **arguments)

    return run


class ApiRoute(Route):
    """One method at one path, answered by ``handler``; the OpenAPI document is built from these."""

    def __init__(
        self,
        path: str,
        method: str,
        handler: Handler,
        *,
        needs_caller: bool = True,
        reads_body: bool = False,
        include_in_schema: bool = True,
        at_once: QuickHandler | None = None,
    ) -> None:
        super().__init__(
            path,
            endpoint(
                handler,
                needs_caller=needs_caller,
                reads_body=reads_body,
                at_once=at_once,
            ),
            methods=[method],
            name=handler.__name__,
            include_in_schema=include_in_schema,
        )
        # Starlette answers HEAD wherever GET is; the API never has (405, Allow without it).
        self.methods = {method}
        self.method = method
        self.handler = handler
        self.needs_caller = needs_caller  # the token gate checks it from the request's head


class ApiRoutes:
    """A module's routes, declared with one decorator per route."""

    def __init__(self, *, include_in_schema: bool = True) -> None:
        self.routes: list[ApiRoute] = []
        self.include_in_schema = include_in_schema

    def route(
        self,
        method: str,
        path: str,
        *,
        needs_caller: bool = True,
        reads_body: bool = False,
        at_once: QuickHandler | None = None,
    ) -> Callable[[Handler], Handler]:
        def declare(handler: Handler) -> Handler:
            self.routes.append(
                ApiRoute(
                    path,
                    method,
                    handler,
                    needs_caller=needs_caller,
                    reads_body=reads_body,
                    include_in_schema=self.include_in_schema,
                    at_once=at_once,
                )
            )
            return handler

        return declare

    def get(
        self, path: str, *, needs_caller: bool = True, at_once: QuickHandler | None = None
    ) -> Callable[[Handler], Handler]:
        return self.route("GET", path, needs_caller=needs_caller, at_once=at_once)

    def put(
        self,
        path: str,
        *,
        needs_caller: bool = True,
        reads_body: bool = False,
        at_once: QuickHandler | None = None,
    ) -> Callable[[Handler], Handler]:
        return self.route(
            "PUT", path, needs_caller=needs_caller, reads_body=reads_body, at_once=at_once
        )

    def post(
        self, path: str, *, needs_caller: bool = True, reads_body: bool = False
    ) -> Callable[[Handler], Handler]:
        return self.route("POST", path, needs_caller=needs_caller, reads_body=reads_body)

    def delete(
        self, path: str, *, needs_caller: bool = True, reads_body: bool = False
    ) -> Callable[[Handler], Handler]:
        return self.route("DELETE", path, needs_caller=needs_caller, reads_body=reads_body)
