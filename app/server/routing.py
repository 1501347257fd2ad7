"""The API's routes on Starlette: the token checked, the body read, the handler in a thread."""

from __future__ import annotations

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


def endpoint(
    handler: Handler, *, needs_caller: bool, reads_body: bool
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
    ) -> None:
        super().__init__(
            path,
            endpoint(handler, needs_caller=needs_caller, reads_body=reads_body),
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
        self, method: str, path: str, *, needs_caller: bool = True, reads_body: bool = False
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
                )
            )
            return handler

        return declare

    def get(self, path: str, **options: bool) -> Callable[[Handler], Handler]:
        return self.route("GET", path, **options)

    def put(self, path: str, **options: bool) -> Callable[[Handler], Handler]:
        return self.route("PUT", path, **options)

    def post(self, path: str, **options: bool) -> Callable[[Handler], Handler]:
        return self.route("POST", path, **options)

    def delete(self, path: str, **options: bool) -> Callable[[Handler], Handler]:
        return self.route("DELETE", path, **options)
