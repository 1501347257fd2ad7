"""The OpenAPI document tells the truth: every route's answers described, bodies as documented,
405 naming every method of the path, and the document itself served without a token."""

from __future__ import annotations

from typing import Any

import jsonschema_rs
import pytest
import requests

from app.server.openapi_doc import RESPONSES
from tests.live_server import LiveServer
from tests.server.http_calls import TIMEOUT, call

TASK = "/api/agents/a_scout/files/task.md"


def _document(server: LiveServer) -> dict[str, Any]:
    answer = requests.get(server.url + "/openapi.json", timeout=TIMEOUT)
    assert answer.status_code == 200
    document: dict[str, Any] = answer.json()
    return document


def test_every_operation_has_its_answers_described(live_server: LiveServer) -> None:
    document = _document(live_server)
    operations = {(m, p) for p, item in document["paths"].items() for m in item}
    assert operations == set(RESPONSES)
    for (method, path), _ in RESPONSES.items():
        responses = document["paths"][path][method]["responses"]
        assert "401" in responses
        for status, described in responses.items():
            schema = described.get("content", {}).get("application/json", {}).get("schema")
            if "text/event-stream" in described.get("content", {}):
                continue  # a stream of events, each described in words (GET /api/events)
            if status.startswith(("4", "5")):
                assert schema is not None and schema["required"] == ["error"], (method, path)
            elif status not in ("204", "304"):
                assert schema is not None, (method, path, status)
                forms = schema.get("oneOf", [schema])  # one answer may come in two forms
                assert all(f["type"] == "object" for f in forms), (method, path, status)


def _check(document: dict[str, Any], method: str, template: str, answer: requests.Response) -> None:
    described = document["paths"][template][method]["responses"]
    assert str(answer.status_code) in described, (method, template, answer.status_code)
    content = described[str(answer.status_code)].get("content")
    if content is None:
        assert not answer.content
        return
    assert answer.headers["content-type"] == "application/json"
    jsonschema_rs.validate(content["application/json"]["schema"], answer.json())


@pytest.mark.parametrize(
    ("method", "template", "path", "who", "body"),
    [
        ("get", "/api/me", "/api/me", "ann", None),
        ("get", "/api/me", "/api/me", None, None),
        ("get", "/api/org/agents", "/api/org/agents", "mia", None),
        ("get", "/api/org/guilds", "/api/org/guilds", "scout", None),
        ("get", "/api/org/embeddable-notes", "/api/org/embeddable-notes", "mia", None),
        ("get", "/api/org/embeddable-notes", "/api/org/embeddable-notes?form=compact", "ann",
         None),
        ("get", "/api/org/embeddable-notes", "/api/org/embeddable-notes?form=compact", "scout",
         None),
        ("get", "/api/guilds/{guild_id}/embed-status", "/api/guilds/guild_ops/embed-status",
         "ann", None),
        ("get", "/api/guilds/{guild_id}/embed-status", "/api/guilds/nope/embed-status",
         "ann", None),
        ("get", "/api/agents/{agent_id}/files/task.md", TASK, "ann", None),
        ("get", "/api/agents/{agent_id}/files/task.md", "/api/agents/nope/files/task.md",
         "ann", None),
        ("put", "/api/agents/{agent_id}/files/task.md", TASK, "ann", {"content": "New."}),
        ("put", "/api/agents/{agent_id}/files/task.md", TASK, "ann",
         {"content": "x", "expected_version": 99}),
        ("put", "/api/agents/{agent_id}/files/task.md", TASK, "mia", {"content": "x"}),
        ("put", "/api/agents/{agent_id}/files/task.md", "/api/agents/nope/files/task.md",
         "ann", {"content": "x"}),
        ("delete", "/api/agents/{agent_id}/files/task.md", TASK, "ann", None),
        ("post", "/api/agents/{agent_id}/runs", "/api/agents/a_scout/runs", "mia", None),
        ("post", "/api/agents/{agent_id}/runs", "/api/agents/nope/runs", "ann", None),
        ("get", "/api/agents/{agent_id}/runs", "/api/agents/nope/runs", "ann", None),
        ("get", "/api/runs/{run_id}", "/api/runs/nope", "ann", None),
        ("get", "/api/notes/{display_path}", "/api/notes/org/o_acme/nope.md", "ann", None),
        ("delete", "/api/notes/{display_path}", "/api/notes/org/o_acme/nope.md", "ann", None),
    ],
)  # fmt: skip
def test_real_answers_match_the_document(
    live_server: LiveServer,
    method: str,
    template: str,
    path: str,
    who: str | None,
    body: dict[str, Any] | None,
) -> None:
    document = _document(live_server)
    answer = call(live_server, method.upper(), path, who, json=body)
    _check(document, method, template, answer)


def test_a_run_and_a_note_match_the_document(live_server: LiveServer) -> None:
    document = _document(live_server)
    made = call(live_server, "POST", "/api/agents/a_scout/runs", "ann")
    _check(document, "post", "/api/agents/{agent_id}/runs", made)
    again = call(live_server, "GET", f"/api/runs/{made.json()['id']}", "mia")
    _check(document, "get", "/api/runs/{run_id}", again)
    listed = call(live_server, "GET", "/api/agents/a_scout/runs", "mia")
    _check(document, "get", "/api/agents/{agent_id}/runs", listed)
    notes = call(live_server, "GET", "/api/org/embeddable-notes", "ann").json()["notes"]
    for note in notes[:3]:
        answer = call(live_server, "GET", f"/api/notes/{note['display_path']}", "ann")
        _check(document, "get", "/api/notes/{display_path}", answer)


@pytest.mark.parametrize(
    ("path", "allowed"),
    [
        (TASK, "DELETE, GET, PUT"),
        ("/api/notes/org/o_acme/x.md", "DELETE, GET, PUT"),
        ("/api/notes", "POST"),
        ("/api/agents/a_scout/runs", "GET, POST"),
        ("/api/me", "GET"),
    ],
)
def test_405_names_every_method_the_path_takes(
    live_server: LiveServer, path: str, allowed: str
) -> None:
    answer = call(live_server, "PATCH", path, "ann", json={})
    assert answer.status_code == 405
    assert answer.headers["Allow"] == allowed
    assert answer.json() == {"error": "method not allowed"}


@pytest.mark.parametrize("path", ["/openapi.json", "/docs", "/redoc"])
def test_the_document_is_served_without_a_token(live_server: LiveServer, path: str) -> None:
    answer = requests.get(live_server.url + path, timeout=TIMEOUT)
    assert answer.status_code == 200
    assert "ann-secret" not in answer.text  # it describes the API and holds no data


def test_the_picker_lists_304_matches_the_document(live_server: LiveServer) -> None:
    document = _document(live_server)
    path = "/api/org/embeddable-notes?form=compact"
    etag = call(live_server, "GET", path, "ann").headers["ETag"]
    again = call(live_server, "GET", path, "ann", headers={"If-None-Match": etag})
    assert again.status_code == 304
    _check(document, "get", "/api/org/embeddable-notes", again)
