"""One request to an ASGI app in the test's own event loop: its status, headers and body."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.types import Message

TASK = "/api/agents/a_scout/files/task.md"


async def asgi_call(
    asgi: Any,
    path: str = TASK,
    *,
    method: str = "GET",
    token: str | None = "ann-secret",
    query: bytes = b"",
    headers: list[tuple[bytes, bytes]] | None = None,
    body: bytes = b"",
) -> tuple[int, dict[bytes, bytes], bytes]:
    """(status, headers, body) of one request to ``asgi``; the client never hangs up."""
    head = list(headers or [])
    if token is not None:
        head.append((b"authorization", f"Bearer {token}".encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "root_path": "",
        "headers": head,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    asked = [{"type": "http.request", "body": body, "more_body": False}]
    sent: list[Message] = []

    async def receive() -> Message:
        if asked:
            return asked.pop()
        await asyncio.Event().wait()  # no disconnect while the answer is made
        raise AssertionError("unreachable")

    async def send(message: Message) -> None:
        sent.append(message)

    await asgi(scope, receive, send)
    start = sent[0]
    answer = b"".join(m.get("body", b"") for m in sent[1:])
    return start["status"], dict(start["headers"]), answer
