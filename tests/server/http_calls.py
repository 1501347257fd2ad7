"""One way for the server tests to call the API over real HTTP, always with a timeout."""

from __future__ import annotations

from typing import Any

import requests

from tests.live_server import LiveServer

TIMEOUT = 15.0
ORG = "org/o_acme"
SCOUT_TASK = "/api/agents/a_scout/files/task.md"
WRITER_TASK = "/api/agents/a_writer/files/task.md"


def call(
    server: LiveServer, method: str, path: str, who: str | None = "ann", **kwargs: Any
) -> requests.Response:
    """``who`` is a person or agent (id or lower-case name); None sends no token."""
    headers = dict(kwargs.pop("headers", {}))
    if who is not None:
        headers.update(server.auth(who))
    return requests.request(method, server.url + path, headers=headers, timeout=TIMEOUT, **kwargs)


def put_task(server: LiveServer, agent: str, body: Any, who: str = "ann") -> requests.Response:
    return call(server, "PUT", f"/api/agents/{agent}/files/task.md", who, json=body)


def get_task(server: LiveServer, agent: str, who: str = "ann") -> dict[str, Any]:
    response = call(server, "GET", f"/api/agents/{agent}/files/task.md", who)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body
