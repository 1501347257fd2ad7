"""Auth, the org endpoints, embed status, the picker's notes, and reading or deleting notes."""

from __future__ import annotations

import pytest
import requests

from app.core.models import sha256_hex
from tests.live_server import LiveServer
from tests.server.http_calls import ORG, TIMEOUT, call, put_task

BOTH_BACKENDS = True  # every test here runs on SQLite and on PostgreSQL (tests/live_server.py)

STYLE = f"{ORG}/guilds/guild_ops/style-guide.md"
ALL_ROUTES = [
    ("GET", "/api/agents/a_scout/files/task.md"),
    ("PUT", "/api/agents/a_scout/files/task.md"),
    ("DELETE", "/api/agents/a_scout/files/task.md"),
    ("GET", "/api/guilds/guild_ops/embed-status"),
    ("GET", "/api/org/embeddable-notes"),
    ("GET", "/api/me"),
    ("GET", "/api/org/agents"),
    ("GET", "/api/org/guilds"),
    ("GET", f"/api/notes/{STYLE}"),
    ("DELETE", f"/api/notes/{STYLE}"),
    ("POST", "/api/agents/a_scout/runs"),
    ("GET", "/api/runs/run_x"),
]


@pytest.mark.parametrize(("method", "path"), ALL_ROUTES)
def test_every_route_needs_a_known_bearer_token(
    live_server: LiveServer, method: str, path: str
) -> None:
    for authorization in (None, "Bearer nope", "Bearer ", "Basic ann-secret", "ann-secret"):
        headers = {} if authorization is None else {"Authorization": authorization}
        response = requests.request(
            method,
            live_server.url + path,
            headers=headers,
            json={"content": "x"},
            timeout=TIMEOUT,
        )
        assert (response.status_code, response.json()) == (401, {"error": "unauthorized"})
    assert call(live_server, "GET", "/api/agents/a_scout/files/task.md").json()["version"] == 3


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("ann", {"id": "u_ann", "name": "Ann", "type": "operator", "org_id": "o_acme"}),
        ("mia", {"id": "u_mia", "name": "Mia", "type": "member", "org_id": "o_acme"}),
        ("scout", {"id": "a_scout", "name": "Scout", "type": "agent", "org_id": "o_acme"}),
    ],
)
def test_me(live_server: LiveServer, who: str, expected: dict[str, str]) -> None:
    assert call(live_server, "GET", "/api/me", who).json() == expected


def test_org_agents_and_guilds(live_server: LiveServer) -> None:
    assert put_task(live_server, "a_writer", {"content": "changed"}).ok
    agents = call(live_server, "GET", "/api/org/agents", "mia").json()["agents"]
    assert agents == [
        {"id": "a_analyst", "name": "Analyst", "guild_id": "guild_research", "task_version": 1},
        {"id": "a_helper", "name": "Helper", "guild_id": "guild_research", "task_version": 1},
        {"id": "a_scout", "name": "Scout", "guild_id": "guild_ops", "task_version": 3},
        {"id": "a_writer", "name": "Writer", "guild_id": "guild_ops", "task_version": 2},
    ]
    assert call(live_server, "GET", "/api/org/guilds").json() == {
        "guilds": [
            {"id": "guild_ops", "name": "Operations"},
            {"id": "guild_research", "name": "Research"},
        ]
    }


def test_embed_status_lists_each_broken_embed_with_hop_and_holder(
    live_server: LiveServer,
) -> None:
    # An operator reads every note, so sees every broken embed (a member sees fewer: see
    # tests/security/test_who_reads_what.py).
    body = call(live_server, "GET", "/api/guilds/guild_ops/embed-status", "ann").json()
    # Extension (docs/API-EXTENSIONS.md): operators also get each agent's embedded size.
    sizes = [agent.pop("embedded_bytes") for agent in body["agents"]]
    assert all(isinstance(size, int) and size > 0 for size in sizes)
    task = f"{ORG}/agents/a_scout/task.md"
    assert body == {
        "agents": [
            {
                "id": "a_scout",
                "broken_embeds": [
                    {"path": f"{ORG}/agents/a_scout/memory.md", "hop": 1, "in": task},
                    {
                        "path": f"{ORG}/guilds/guild_ops/retired.md",
                        "hop": 2,
                        "in": f"{ORG}/guilds/guild_ops/runbook.md",
                    },
                    {"path": f"{ORG}/guilds/guild_research/methods.md", "hop": 1, "in": task},
                    {"path": "guild/style-guide.md", "hop": 1, "in": task},
                    {"path": f"{ORG}/guilds/guild_ops/retired-playbook.md", "hop": 1, "in": task},
                ],
            },
            {"id": "a_writer", "broken_embeds": []},
        ]
    }


def test_embedded_size_is_for_operators_only(live_server: LiveServer) -> None:
    body = call(live_server, "GET", "/api/guilds/guild_ops/embed-status", "mia").json()
    assert all("embedded_bytes" not in agent for agent in body["agents"])


def test_embed_status_follows_a_save_and_unknown_guild_is_404(live_server: LiveServer) -> None:
    assert put_task(live_server, "a_writer", {"content": f"![[{ORG}/nowhere.md]]"}).ok
    agents = call(live_server, "GET", "/api/guilds/guild_ops/embed-status").json()["agents"]
    assert agents[1]["broken_embeds"] == [
        {"path": f"{ORG}/nowhere.md", "hop": 1, "in": f"{ORG}/agents/a_writer/task.md"}
    ]
    response = call(live_server, "GET", "/api/guilds/guild_none/embed-status")
    assert (response.status_code, response.json()) == (404, {"error": "no such guild"})


def _picker(server: LiveServer, who: str) -> dict[str, tuple[str, str, str]]:
    notes = call(server, "GET", "/api/org/embeddable-notes", who).json()["notes"]
    return {n["display_path"]: (n["title"], n["kind"], n["level"]) for n in notes}


def test_embeddable_notes_depend_on_the_caller(live_server: LiveServer) -> None:
    everything = {
        f"{ORG}/agents/a_scout/checklist.md": ("Checklist", "note", "agent"),
        f"{ORG}/escalation.md": ("Escalation", "note", "org"),
        f"{ORG}/guilds/guild_ops/customers": ("Customers", "collection", "guild"),
        f"{ORG}/guilds/guild_ops/runbook.md": ("Runbook", "note", "guild"),
        STYLE: ("Style guide", "note", "guild"),
        f"{ORG}/guilds/guild_research/datasets": ("Datasets", "collection", "guild"),
        f"{ORG}/guilds/guild_research/methods.md": ("Methods", "note", "guild"),
        f"{ORG}/handbook.md": ("Handbook", "note", "org"),
        f"{ORG}/private/board-minutes.md": ("Board minutes", "note", "org"),
    }
    assert _picker(live_server, "ann") == everything  # operators: all; Memory is not offered
    org_wide = {f"{ORG}/escalation.md", f"{ORG}/handbook.md", f"{ORG}/guilds/guild_ops/customers"}
    assert set(_picker(live_server, "mia")) == org_wide | {f"{ORG}/private/board-minutes.md"}
    assert set(_picker(live_server, "scout")) == org_wide | {
        STYLE,
        f"{ORG}/guilds/guild_ops/runbook.md",
        f"{ORG}/agents/a_scout/checklist.md",
    }
    assert set(_picker(live_server, "analyst")) == org_wide | {
        f"{ORG}/guilds/guild_research/methods.md",
        f"{ORG}/guilds/guild_research/datasets",
    }


def test_a_note_reads_with_its_access_list(live_server: LiveServer) -> None:
    body = call(live_server, "GET", f"/api/notes/{STYLE}", "scout").json()
    assert body["display_path"] == STYLE
    assert body["title"] == "Style guide"
    assert (body["kind"], body["level"], body["version"]) == ("note", "guild", 1)
    assert body["text"].startswith("Write short sentences.")
    assert body["access"] == [{"principal": "guild:guild_ops", "role": "read"}]
    assert body["content_hash"] == sha256_hex(body["text"])
    collection = call(live_server, "GET", f"/api/notes/{ORG}/guilds/guild_ops/customers").json()
    assert collection["kind"] == "collection"
    assert "text" not in collection


@pytest.mark.parametrize(
    ("who", "path", "status"),
    [
        ("scout", f"{ORG}/guilds/guild_research/methods.md", 404),  # another guild's note
        ("mia", STYLE, 404),  # a member the access list does not name
        ("mia", f"{ORG}/private/board-minutes.md", 200),  # user:u_mia
        ("writer", f"{ORG}/private/board-minutes.md", 404),
        ("ann", f"{ORG}/private/board-minutes.md", 200),  # operators read every file
        ("ann", f"{ORG}/agents/a_scout/memory.md", 200),
        ("scout", f"{ORG}/agents/a_scout/memory.md", 404),  # no access list gives it
        ("ann", f"{ORG}/missing.md", 404),
    ],
)
def test_who_reads_which_note(live_server: LiveServer, who: str, path: str, status: int) -> None:
    response = call(live_server, "GET", f"/api/notes/{path}", who)
    assert response.status_code == status
    if status == 404:
        assert response.json() == {"error": "not found"}


def test_deleting_an_embedded_note_names_the_agents_sorted(live_server: LiveServer) -> None:
    # a_writer and a_scout both embed the style guide directly.
    response = call(live_server, "DELETE", f"/api/notes/{STYLE}")
    assert response.status_code == 409
    assert response.json() == {"error": "note is embedded in task (a_scout, a_writer)"}
    assert call(live_server, "GET", f"/api/notes/{STYLE}").status_code == 200


def test_only_direct_embeds_in_live_task_text_block_a_delete(live_server: LiveServer) -> None:
    # The escalation note is embedded only by the style guide (a note), never by a Task.
    escalation = f"{ORG}/escalation.md"
    assert call(live_server, "DELETE", f"/api/notes/{escalation}").status_code == 204
    assert call(live_server, "GET", f"/api/notes/{escalation}").json() == {"error": "not found"}
    # A Task that embedded a note in an earlier version only does not block either.
    handbook = f"{ORG}/handbook.md"
    assert put_task(live_server, "a_writer", {"content": f"![[ {handbook} ]]"}).ok
    response = call(live_server, "DELETE", f"/api/notes/{handbook}")
    assert response.json() == {"error": "note is embedded in task (a_writer)"}
    assert put_task(live_server, "a_writer", {"content": "no embeds"}).ok
    assert call(live_server, "DELETE", f"/api/notes/{handbook}").status_code == 204
    # The deleted note now shows as broken where the style guide embeds it.
    agents = call(live_server, "GET", "/api/guilds/guild_ops/embed-status").json()["agents"]
    assert {"path": escalation, "hop": 2, "in": STYLE} in agents[0]["broken_embeds"]


@pytest.mark.parametrize(
    ("who", "path", "status", "message"),
    [
        ("ann", f"{ORG}/agents/a_scout/task.md", 422, "cannot delete this file"),
        ("ann", f"{ORG}/agents/a_scout/memory.md", 422, "cannot delete this file"),
        ("ann", f"{ORG}/missing.md", 404, "not found"),
        ("mia", f"{ORG}/handbook.md", 422, "only operators can delete notes"),
        ("scout", f"{ORG}/guilds/guild_research/methods.md", 404, "not found"),
    ],
)
def test_delete_note_refusals(
    live_server: LiveServer, who: str, path: str, status: int, message: str
) -> None:
    response = call(live_server, "DELETE", f"/api/notes/{path}", who)
    assert (response.status_code, response.json()) == (status, {"error": message})


def test_unknown_routes_and_methods_answer_in_the_error_shape(live_server: LiveServer) -> None:
    missing = call(live_server, "GET", "/api/nothing-here")
    assert (missing.status_code, missing.json()) == (404, {"error": "not found"})
    wrong = call(live_server, "PATCH", "/api/agents/a_scout/files/task.md")
    assert (wrong.status_code, wrong.json()) == (405, {"error": "method not allowed"})


def test_openapi_document_is_served(live_server: LiveServer) -> None:
    doc = requests.get(live_server.url + "/openapi.json", timeout=TIMEOUT).json()
    assert "/api/agents/{agent_id}/files/task.md" in doc["paths"]
    put = doc["paths"]["/api/agents/{agent_id}/files/task.md"]["put"]
    schema = put["requestBody"]["content"]["application/json"]["schema"]
    assert schema["properties"]["expected_version"] == {"type": "integer"}
    assert not any(path.startswith("/__test__") for path in doc["paths"])
