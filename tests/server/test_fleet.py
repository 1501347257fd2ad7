"""The fleet over real HTTP: health rows, search in Tasks and prompts, change sets made and
reverted as a unit, and the audit of every kind of change."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import requests

from app.server import start_server
from tests.live_server import WORKSPACE_BASIC, LiveServer, ServerFactory
from tests.server.http_calls import ORG, TIMEOUT, call, get_task, put_task

RULES = f"{ORG}/rules.md"
FLEET_SIZE = 50


def _fleet_workspace(size: int = FLEET_SIZE) -> dict[str, Any]:
    agents = [
        {
            "id": f"a_{n:03d}",
            "name": f"Agent {n}",
            "guild": "guild_ops" if n % 2 else "guild_research",
            "task": f"# Agent {n}\n\nExport each report as CSV.\n\n## Work\n![[{RULES}]]\n",
        }
        for n in range(size)
    ]
    return {
        "org": {"id": "o_acme", "name": "Acme"},
        "guilds": [
            {"id": "guild_ops", "name": "Operations"},
            {"id": "guild_research", "name": "Research"},
        ],
        "people": [
            {"id": "u_ann", "name": "Ann", "type": "operator", "token": "ann-secret"},
            {"id": "u_mia", "name": "Mia", "type": "member", "token": "mia-secret"},
        ],
        "agents": agents,
        "notes": [
            {
                "path": RULES,
                "title": "Rules",
                "text": "Never page the night shift.\n",
                "access": [{"principal": "org", "role": "read"}],
            }
        ],
    }


@pytest.fixture
def fleet(server_factory: ServerFactory) -> LiveServer:
    return server_factory(_fleet_workspace())


def _replace_all(server: LiveServer, old: str, new: str, title: str) -> dict[str, Any]:
    found = call(server, "GET", "/api/org/search", params={"q": old}).json()["agents"]
    changes = []
    for agent in found:
        task = get_task(server, agent["id"])
        changes.append(
            {
                "agent_id": agent["id"],
                "expected_version": task["version"],
                "content": task["content"].replace(old, new),
            }
        )
    made = call(server, "POST", "/api/org/change-sets", json={"title": title, "changes": changes})
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    return body


def test_a_replace_over_50_tasks_is_applied_and_reverted_but_for_one_edited_since(
    fleet: LiveServer,
) -> None:
    made = _replace_all(fleet, "CSV", "Parquet", "Rename CSV to Parquet")
    assert len(made["versions"]) == FLEET_SIZE
    assert {v["version"] for v in made["versions"]} == {2}
    task = get_task(fleet, "a_007")
    assert "Parquet" in task["content"]
    assert task["change_set"] == {"id": made["id"], "title": "Rename CSV to Parquet"}
    # Someone edits one Task meanwhile: the revert leaves it alone and says so.
    edited = task["content"] + "\nAsk before exporting.\n"
    assert put_task(fleet, "a_007", {"content": edited, "expected_version": 2}).status_code == 200
    reverted = call(fleet, "POST", f"/api/org/change-sets/{made['id']}/revert")
    assert reverted.status_code == 201, reverted.text
    body = reverted.json()
    assert body["title"] == 'Revert "Rename CSV to Parquet"'
    assert body["skipped"] == [{"agent_id": "a_007", "reason": "edited since"}]
    assert len(body["versions"]) == FLEET_SIZE - 1
    assert "CSV" in get_task(fleet, "a_008")["content"]
    assert get_task(fleet, "a_007")["content"] == edited
    # Each version a change set made says so, live and in the revisions.
    back = get_task(fleet, "a_008")
    assert back["version"] == 3
    assert back["change_set"]["id"] == body["id"]
    by_version = {r["version"]: r.get("change_set") for r in back["revisions"]}
    assert by_version[2] == {"id": made["id"], "title": "Rename CSV to Parquet"}
    assert by_version[1] is None
    listed = call(fleet, "GET", "/api/org/change-sets").json()["change_sets"]
    assert [c["id"] for c in listed] == [body["id"], made["id"]]
    assert "changes" not in listed[0]
    one = call(fleet, "GET", f"/api/org/change-sets/{made['id']}").json()
    assert len(one["changes"]) == FLEET_SIZE
    assert all("Parquet" in c["content"] for c in one["changes"])


def test_a_change_set_is_all_or_nothing(fleet: LiveServer) -> None:
    first, second = get_task(fleet, "a_001"), get_task(fleet, "a_002")
    assert put_task(fleet, "a_002", {"content": "Moved.", "expected_version": 1}).status_code == 200
    answer = call(
        fleet,
        "POST",
        "/api/org/change-sets",
        json={
            "title": "Both",
            "changes": [
                {"agent_id": "a_001", "expected_version": 1, "content": first["content"] + "x"},
                {"agent_id": "a_002", "expected_version": 1, "content": second["content"] + "y"},
            ],
        },
    )
    assert answer.status_code == 409
    assert answer.json() == {
        "error": "version conflict",
        "conflicts": [{"agent_id": "a_002", "version": 2}],
    }
    assert get_task(fleet, "a_001")["version"] == 1  # nothing saved
    assert call(fleet, "GET", "/api/org/change-sets").json() == {"change_sets": []}


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"title": " ", "changes": []}, 422, "title must be 1 to 200 characters"),
        ({"title": "t", "changes": []}, 422, "changes must be a list of at least one change"),
        (
            {"title": "t", "changes": [{"agent_id": "a_001", "expected_version": "1"}]},
            422,
            "expected_version must be an integer",
        ),
        (
            {"title": "t", "changes": [{"agent_id": "a_001", "expected_version": 1, "content": 3}]},
            422,
            "content must be a string",
        ),
        (
            {
                "title": "t",
                "changes": [{"agent_id": "a_001", "expected_version": 1, "content": "é" * 131_073}],
            },
            422,
            "write exceeds 256 KB",
        ),
        (
            {"title": "t", "changes": [{"agent_id": "a_x", "expected_version": 1, "content": ""}]},
            404,
            "no such agent",
        ),
    ],
)
def test_a_bad_change_set_is_refused_in_one_sentence(
    fleet: LiveServer, body: dict[str, Any], status: int, error: str
) -> None:
    answer = call(fleet, "POST", "/api/org/change-sets", json=body)
    assert (answer.status_code, answer.json()) == (status, {"error": error})


def test_a_change_equal_to_the_live_text_makes_no_version(fleet: LiveServer) -> None:
    same = get_task(fleet, "a_003")
    answer = call(
        fleet,
        "POST",
        "/api/org/change-sets",
        json={
            "title": "Nothing",
            "changes": [{"agent_id": "a_003", "expected_version": 1, "content": same["content"]}],
        },
    )
    assert answer.status_code == 201
    assert answer.json()["versions"] == []


def test_only_operators_use_the_fleet(fleet: LiveServer) -> None:
    for path in ("/api/org/health", "/api/org/search?q=x", "/api/org/audit"):
        answer = call(fleet, "GET", path, "mia")
        assert (answer.status_code, answer.json()) == (422, {"error": "operators only"})
    answer = call(fleet, "POST", "/api/org/change-sets", "mia", json={"title": "t", "changes": []})
    assert (answer.status_code, answer.json()) == (422, {"error": "task is not writable"})


def test_search_finds_a_phrase_from_a_note_in_every_prompt_that_gets_it(
    fleet: LiveServer,
) -> None:
    in_tasks = call(fleet, "GET", "/api/org/search", params={"q": "night shift"}).json()
    assert in_tasks == {"agents": []}
    in_prompts = call(
        fleet, "GET", "/api/org/search", params={"q": "NIGHT shift", "in": "prompt"}
    ).json()["agents"]
    assert len(in_prompts) == FLEET_SIZE
    (match,) = in_prompts[0]["matches"]
    assert match["text"] == "Never page the night shift."
    assert match["column"] == len("Never page the ") + 1
    tasks = call(fleet, "GET", "/api/org/search", params={"q": "csv", "guild": "guild_ops"}).json()
    assert len(tasks["agents"]) == FLEET_SIZE // 2
    assert tasks["agents"][0]["matches"] == [
        {"line": 3, "column": 23, "text": "Export each report as CSV."}
    ]
    pattern = call(fleet, "GET", "/api/org/search", params={"q": r"^## W\w+$", "regex": "1"}).json()
    assert pattern["agents"][0]["matches"] == [{"line": 5, "column": 1, "text": "## Work"}]
    bad = call(fleet, "GET", "/api/org/search", params={"q": "(", "regex": "1"})
    assert (bad.status_code, bad.json()) == (422, {"error": "bad pattern"})


SERVER_TIMING = re.compile(r"app;dur=(\d+\.\d)")


def _server_ms(answer: requests.Response) -> float:
    """The server's own time on the request, from its one ``Server-Timing`` header."""
    found = SERVER_TIMING.fullmatch(answer.headers["Server-Timing"])
    assert found is not None, answer.headers["Server-Timing"]
    return float(found.group(1))


def test_every_answer_says_the_server_time_it_took(fleet: LiveServer) -> None:
    for where in ("task", "prompt"):
        answer = call(fleet, "GET", "/api/org/search", params={"q": "csv", "in": where})
        assert answer.status_code == 200
        assert _server_ms(answer) >= 0
    # A kept answer sent again carries one header with its own time, not the last one's too.
    for _ in range(2):
        answer = call(fleet, "GET", "/api/agents/a_001/files/task.md")
        assert answer.status_code == 200 and _server_ms(answer) >= 0
    refused = call(fleet, "GET", "/api/org/search", None, params={"q": "csv"})
    assert refused.status_code == 401 and _server_ms(refused) >= 0


def test_health_has_a_row_per_agent_and_notices_a_prompt_changed_by_a_note(
    fleet: LiveServer,
) -> None:
    rows = call(fleet, "GET", "/api/org/health").json()["agents"]
    assert len(rows) == FLEET_SIZE
    row = rows[0]
    assert row["id"] == "a_000"
    assert row["embedded_bytes"] == len(b"Never page the night shift.\n")
    assert (row["over_budget"], row["broken_embeds"], row["open_proposals"]) == (False, 0, 0)
    assert "missing_inputs" in row["shape"]
    assert row["last_run_at"] is None and row["prompt_changed_since_run"] is None
    assert call(fleet, "POST", "/api/agents/a_000/runs").status_code == 201
    row = call(fleet, "GET", "/api/org/health").json()["agents"][0]
    assert row["last_run_at"] is not None and row["prompt_changed_since_run"] is False
    fleet.put_note(RULES, text="Page the night shift only for outages.\n")
    row = call(fleet, "GET", "/api/org/health").json()["agents"][0]
    assert row["prompt_changed_since_run"] is True


def test_the_audit_lists_each_kind_of_change_newest_first(fleet: LiveServer) -> None:
    task = get_task(fleet, "a_004")
    put_task(fleet, "a_004", {"content": "Edited.", "expected_version": 1})
    restored = put_task(
        fleet, "a_004", {"content": task["content"], "expected_version": 2, "restored_from": 1}
    )
    assert restored.status_code == 200
    made = _replace_all(fleet, "CSV", "Parquet", "Rename")
    call(fleet, "POST", f"/api/org/change-sets/{made['id']}/revert")
    events = call(fleet, "GET", "/api/org/audit", params={"agent": "a_004"}).json()["events"]
    kinds = [e["kind"] for e in events]
    assert kinds == ["change_set_reverted", "change_set", "task_restored", "task_saved"]
    assert events[1]["change_set_id"] == made["id"]
    assert {"agent_id": "a_004", "version": 4} in events[1]["versions"]
    assert events[2]["version"] == 3 and events[2]["restored_from"] == 1
    assert all(e["by_name"] == "Ann" for e in events)
    notes = call(fleet, "GET", "/api/org/audit", params={"limit": "5"}).json()["events"]
    assert len(notes) == 5
    since = events[1]["at"]
    later = call(fleet, "GET", "/api/org/audit", params={"since": since}).json()["events"]
    assert {e["kind"] for e in later} == {"change_set", "change_set_reverted"}
    research = call(fleet, "GET", "/api/org/audit", params={"guild": "guild_research"}).json()
    assert all(any(int(a[2:]) % 2 == 0 for a in e["agent_ids"]) for e in research["events"])
    bad = call(fleet, "GET", "/api/org/audit", params={"since": "yesterday"})
    assert (bad.status_code, bad.json()) == (422, {"error": "since must be an ISO 8601 time"})
    bad = call(fleet, "GET", "/api/org/audit", params={"limit": "0"})
    assert bad.json() == {"error": "limit must be a number from 1 to 5000"}


def test_a_restore_names_a_version(fleet: LiveServer) -> None:
    answer = put_task(fleet, "a_005", {"content": "x", "restored_from": "one"})
    assert (answer.status_code, answer.json()) == (
        422,
        {"error": "restored_from must be a version number"},
    )


def test_a_thousand_changes_of_2_kb_fit_in_one_request(server_factory: ServerFactory) -> None:
    server = server_factory(_fleet_workspace(1000))
    changes = [
        {"agent_id": f"a_{n:03d}", "expected_version": 1, "content": f"{n}\n" + "x" * 2048}
        for n in range(1000)
    ]
    made = call(server, "POST", "/api/org/change-sets", json={"title": "Big", "changes": changes})
    assert made.status_code == 201, made.text[:200]
    assert len(made.json()["versions"]) == 1000


def test_a_spec_only_server_has_no_fleet(tmp_path: Path) -> None:
    with start_server(WORKSPACE_BASIC, tmp_path / "spec.sqlite3", extensions=False) as server:
        answer = requests.get(
            server.url + "/api/org/health",
            headers={"Authorization": "Bearer ann-secret"},
            timeout=TIMEOUT,
        )
    assert (answer.status_code, answer.json()) == (404, {"error": "not found"})
