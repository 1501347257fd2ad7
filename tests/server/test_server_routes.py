"""The server as Starlette serves it: a lean start, every route in the OpenAPI document with
its parameters and answering as described, and the description pages as they always were."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import requests

from app.server import create_app, start_server
from app.server.routing import ApiRoute
from tests.live_server import WORKSPACE_BASIC, LiveServer
from tests.server.http_calls import ORG, TIMEOUT, call

REPO = Path(__file__).resolve().parents[2]

TASK = "/api/agents/{agent_id}/files/task.md"
NOTE = "/api/notes/{display_path}"
PROPOSAL = "/api/proposals/{proposal_id}"
# Every operation the server answers, with its parameters (path, then query), as the API
# documents them (shared/spec/API.md, docs/API-EXTENSIONS.md): told here, not read from the code.
OPERATIONS: dict[tuple[str, str], list[str]] = {
    ("get", TASK): ["agent_id", "revisions"],
    ("put", TASK): ["agent_id", "revisions"],
    ("get", TASK + "/revisions/{version}"): ["agent_id", "version"],
    ("delete", TASK): ["agent_id"],
    ("get", "/api/guilds/{guild_id}/embed-status"): ["guild_id"],
    ("get", "/api/org/embeddable-notes"): ["form"],
    ("post", "/api/agents/{agent_id}/runs"): ["agent_id"],
    ("get", "/api/agents/{agent_id}/runs"): ["agent_id"],
    ("get", "/api/runs/{run_id}"): ["run_id"],
    ("get", "/api/me"): [],
    ("get", "/api/org/agents"): [],
    ("get", "/api/org/guilds"): [],
    ("get", "/api/org/embed-status"): [],
    ("get", NOTE): ["display_path"],
    ("delete", NOTE): ["display_path"],
    ("post", "/api/notes"): [],
    ("put", NOTE): ["display_path"],
    ("get", NOTE + "/used-by"): ["display_path"],
    ("post", NOTE + "/impact"): ["display_path"],
    ("post", "/api/agents/{agent_id}/proposals"): ["agent_id"],
    ("get", "/api/agents/{agent_id}/proposals"): ["agent_id"],
    ("get", "/api/org/proposals"): ["status"],
    ("get", PROPOSAL): ["proposal_id", "revision"],
    ("put", PROPOSAL): ["proposal_id"],
    ("post", PROPOSAL + "/publish"): ["proposal_id"],
    ("post", PROPOSAL + "/decline"): ["proposal_id"],
    ("post", PROPOSAL + "/withdraw"): ["proposal_id"],
    ("get", "/api/org/health"): [],
    ("get", "/api/org/tasks"): ["agent"],
    ("get", "/api/org/search"): ["q", "in", "regex", "guild"],
    ("post", "/api/org/change-sets"): [],
    ("get", "/api/org/change-sets"): [],
    ("get", "/api/org/change-sets/{change_set_id}"): ["change_set_id"],
    ("post", "/api/org/change-sets/{change_set_id}/revert"): ["change_set_id"],
    ("get", "/api/org/audit"): ["since", "agent", "guild", "limit"],
    ("get", "/api/events"): ["Last-Event-ID", "last_event_id", "once"],
    ("post", "/api/presence"): [],
}
REQUIRED = {("get", "/api/org/search", "q")}  # the query parameters a route can't do without
SPEC_OPERATIONS = {
    ("get", TASK),
    ("put", TASK),
    ("delete", TASK),
    ("get", "/api/guilds/{guild_id}/embed-status"),
    ("get", "/api/org/embeddable-notes"),
}
BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("put", TASK): {"content": "Routed."},
    ("post", "/api/presence"): {"agent_id": "a_scout", "editing": True},
}
VALUES = {
    "agent_id": "a_scout",
    "guild_id": "guild_ops",
    "display_path": f"{ORG}/escalation.md",  # a path parameter that holds slashes
    "form": "compact",
    "revisions": "summary",
    "version": "1",  # a_scout's seeded text, kept as a revision by its saves
    "status": "open",
    "revision": "1",
    "change_set_id": "cs_missing",
    "q": "queue",
    "in": "prompt",
    "regex": "1",
    "since": "2026-01-01T00:00:00Z",
    "agent": "a_scout",
    "limit": "10",
    "guild": "guild_ops",
    "last_event_id": "0",
    "once": "1",
}


def _document(server: LiveServer) -> dict[str, Any]:
    answer = requests.get(server.url + "/openapi.json", timeout=TIMEOUT)
    assert answer.status_code == 200
    document: dict[str, Any] = answer.json()
    return document


def _parameters(operation: dict[str, Any]) -> list[str]:
    return [p["name"] for p in operation.get("parameters", [])]


def test_the_server_starts_without_fastapi_or_pydantic() -> None:
    """Their imports were most of a restart; nothing on the start path may bring them back."""
    probe = (
        "import sys, app.server.app_factory, app.server.running, app.cli;"
        "print([m for m in ('fastapi', 'pydantic') if m in sys.modules])"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_document_lists_every_route_with_its_parameters(live_server: LiveServer) -> None:
    document = _document(live_server)
    listed = {
        (method, path): _parameters(operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
    }
    assert listed == OPERATIONS
    for (method, path), names in OPERATIONS.items():
        operation = document["paths"][path][method]
        in_path = [p["name"] for p in operation.get("parameters", []) if p["in"] == "path"]
        assert in_path == re.findall(r"{(\w+)}", path), (method, path)
        assert operation["security"] == [{"bearer": []}]
        assert operation["operationId"].endswith(f"_{method}")
        for parameter in operation.get("parameters", []):
            required = parameter["in"] == "path" or (method, path, parameter["name"]) in REQUIRED
            assert parameter["required"] is required, (method, path, names)
    put = document["paths"][TASK]["put"]
    assert put["requestBody"]["content"]["application/json"]["schema"]["required"] == ["content"]
    assert document["components"] == {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}
    }


def test_the_document_lists_the_routes_the_app_serves(
    live_server: LiveServer, tmp_path: Path
) -> None:
    """The same app, made anew: each of its API routes is in the document, and no other."""
    app = create_app(tmp_path / "routes.sqlite3", WORKSPACE_BASIC)
    try:
        served = {
            (method.lower(), route.path_format)
            for route in app.routes
            if isinstance(route, ApiRoute)
            for method in route.methods or ()
        }
    finally:
        app.state.db.close()
    document = _document(live_server)
    assert served == {(m, p) for p, item in document["paths"].items() for m in item}


def test_every_listed_operation_is_served_as_described(live_server: LiveServer) -> None:
    """Each operation, called with its parameters filled in, is routed (no 404 ``not found``
    nor 405) and answers a status its description lists."""
    document = _document(live_server)
    run_id = call(live_server, "POST", "/api/agents/a_scout/runs", "ann").json()["id"]
    scout = call(live_server, "GET", "/api/agents/a_scout/files/task.md", "ann").json()
    draft = {"content": "Proposed.", "base_version": scout["version"], "title": "Routed"}
    made = call(live_server, "POST", "/api/agents/a_scout/proposals", "ann", json=draft)
    values = {**VALUES, "run_id": run_id, "proposal_id": made.json()["id"]}
    # Deletions last: the note must still be there for the GET.
    order = sorted(OPERATIONS, key=lambda operation: operation[0] == "delete")
    for method, template in order:
        path = re.sub(r"{(\w+)}", lambda m: values[m.group(1)], template)
        query = {
            p["name"]: values[p["name"]]
            for p in document["paths"][template][method].get("parameters", [])
            if p["in"] == "query"
        }
        body = BODIES.get((method, template))
        answer = call(live_server, method.upper(), path, "ann", params=query, json=body)
        assert answer.status_code != 405, (method, path)
        streamed = answer.headers.get("content-type", "").startswith("text/event-stream")
        assert answer.status_code == 204 or streamed or answer.json() != {"error": "not found"}, (
            method,
            path,
        )
        described = document["paths"][template][method]["responses"]
        assert str(answer.status_code) in described, (method, path, answer.status_code)


def test_a_spec_only_document_lists_the_spec_operations_only(tmp_path: Path) -> None:
    with start_server(WORKSPACE_BASIC, tmp_path / "spec.sqlite3", extensions=False) as server:
        answer = requests.get(server.url + "/openapi.json", timeout=TIMEOUT)
        me = requests.get(
            server.url + "/api/me", headers={"Authorization": "Bearer ann-secret"}, timeout=TIMEOUT
        )
    listed = {(m, p) for p, item in answer.json()["paths"].items() for m in item}
    assert listed == SPEC_OPERATIONS
    assert (me.status_code, me.json()) == (404, {"error": "not found"})


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (
            "/docs",
            [
                "<title>Taskdesk reference server</title>",
                '<a href="/openapi.json">the OpenAPI document</a>',
                "<code>/api/agents/{agent_id}/files/task.md</code>",
            ],
        ),
        ("/redoc", ["<title>Taskdesk reference server</title>"]),
    ],
)
def test_the_description_pages_load_the_document(
    live_server: LiveServer, path: str, expected: list[str]
) -> None:
    answer = requests.get(live_server.url + path, timeout=TIMEOUT)
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/html; charset=utf-8"
    for text in expected:
        assert text in answer.text


def test_head_is_answered_where_it_always_was(live_server: LiveServer) -> None:
    """The description pages answer HEAD; the API's routes never did (405, Allow without it)."""
    document = requests.head(live_server.url + "/openapi.json", timeout=TIMEOUT)
    assert document.status_code == 200
    assert int(document.headers["content-length"]) > 0
    me = call(live_server, "HEAD", "/api/me", "ann")
    assert (me.status_code, me.headers["Allow"]) == (405, "GET")
