"""Reads a JSON object body by hand, so every mistake in it gets the API's own 422 message."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.requests import Request

from app.server.responses import ApiError


async def json_object_body(request: Request) -> dict[str, Any]:
    """The request body as a JSON object, or 422 saying what is wrong with it."""
    raw = await request.body()
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise ApiError(422, "request body is not valid JSON") from None
    if not isinstance(body, dict):
        raise ApiError(422, "request body must be a JSON object")
    return body
