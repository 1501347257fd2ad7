"""The API's description at /openapi.json, and the page at /docs (and /redoc) that shows it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from app.server.docs_page import PAGE_HEADERS, docs_html
from app.server.openapi_doc import build_document

OPENAPI_URL = "/openapi.json"
DOCS_URL = "/docs"
REDOC_URL = "/redoc"


def description_routes(title: str, version: Callable[[], str]) -> list[Route]:
    """``/openapi.json``, ``/docs`` and ``/redoc`` (the same page), no token needed.

    Plain Starlette routes: they answer HEAD too. The document is built on the first request
    for it and kept, so building it costs nothing at start, nor does ``version`` (the
    package metadata), read then too. The page runs no script and loads nothing from
    elsewhere (``docs_page``)."""
    document: dict[str, Any] | None = None

    def described(request: Request) -> dict[str, Any]:
        nonlocal document
        if document is None:
            document = build_document(request.app.routes, title, version())
        return document

    async def openapi(request: Request) -> Response:
        served = described(request)
        root_path = _root_path(request)
        if root_path and root_path not in {s.get("url") for s in served.get("servers", [])}:
            served = {**served, "servers": [{"url": root_path}, *served.get("servers", [])]}
        return JSONResponse(served)

    async def docs(request: Request) -> Response:
        html = docs_html(described(request), title, _root_path(request) + OPENAPI_URL)
        return HTMLResponse(html, headers=PAGE_HEADERS)

    return [
        Route(OPENAPI_URL, openapi, include_in_schema=False),
        Route(DOCS_URL, docs, include_in_schema=False),
        Route(REDOC_URL, docs, include_in_schema=False),
    ]


def _root_path(request: Request) -> str:
    """Where the app is mounted behind a proxy (``""`` when served directly)."""
    root_path: str = request.scope.get("root_path", "")
    return root_path.rstrip("/")
