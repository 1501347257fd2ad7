"""Runs: the system prompt carries the expanded Task, keeps it, and respects the budget."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from app.core.expander import task_source
from app.core.workspace import load_workspace
from app.server.system_prompt import task_section
from tests.live_server import WORKSPACE_BASIC, LiveServer, ServerFactory
from tests.server.http_calls import ORG, call, put_task

BOTH_BACKENDS = True  # every test here runs on SQLite and on PostgreSQL (tests/live_server.py)

REPO = Path(__file__).resolve().parents[2]


def _run(server: LiveServer, agent: str, who: str = "ann") -> dict[str, Any]:
    response = call(server, "POST", f"/api/agents/{agent}/runs", who)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def test_a_run_carries_the_expanded_task_and_its_source(live_server: LiveServer) -> None:
    run = _run(live_server, "a_scout")
    workspace = load_workspace(WORKSPACE_BASIC)
    expansion = workspace.expand_for("a_scout")
    prompt = run["system_prompt"]
    assert run["id"].startswith("run_")
    assert prompt.startswith("<guidelines>\nYou are Scout, an agent of the Operations guild")
    assert f"<task>\n{expansion.text}\n</task>" in prompt
    assert task_section(prompt) == expansion.text
    assert "<state>\n" in prompt
    live = workspace.agent("a_scout").live_task
    expected = task_source(
        expansion, version=3, task_text=live, display_path=f"{ORG}/agents/a_scout/task.md"
    )
    assert run["task_source"] == expected
    assert run["task_source"]["collections"] == [f"{ORG}/guilds/guild_ops/customers"]
    assert [n["display_path"] for n in run["task_source"]["notes"]] == [
        f"{ORG}/guilds/guild_ops/style-guide.md",
        f"{ORG}/escalation.md",
        f"{ORG}/guilds/guild_ops/runbook.md",
        f"{ORG}/handbook.md",
        f"{ORG}/agents/a_scout/checklist.md",
    ]
    again = call(live_server, "GET", f"/api/runs/{run['id']}", "scout")
    assert again.json() == run


def test_a_run_keeps_its_task_after_later_saves(live_server: LiveServer) -> None:
    run = _run(live_server, "a_writer", who="writer")
    assert put_task(live_server, "a_writer", {"content": "Something else entirely"}).ok
    live_server.put_note(
        f"{ORG}/guilds/guild_ops/style-guide.md",
        title="Style guide",
        text="Rewritten.",
        access=[{"principal": "org", "role": "read"}],
    )
    kept = call(live_server, "GET", f"/api/runs/{run['id']}").json()
    assert kept == run
    assert "Write short sentences." in kept["system_prompt"]
    newer = _run(live_server, "a_writer")
    assert task_section(newer["system_prompt"]) == "Something else entirely"
    assert newer["task_source"]["version"] == 2


def test_a_changed_note_shows_in_the_next_run(live_server: LiveServer) -> None:
    live_server.put_note(
        f"{ORG}/guilds/guild_ops/style-guide.md",
        title="Style guide",
        text="Rewritten.\n",
        access=[{"principal": "guild:guild_ops", "role": "read"}],
    )
    run = _run(live_server, "a_writer")
    assert (
        '<style-guide path="org/o_acme/guilds/guild_ops/style-guide.md" level="guild">\n'
        "Rewritten.\n</style-guide>" in run["system_prompt"]
    )
    assert run["task_source"]["notes"][0]["version"] == 2


def _budget_workspace(workspace: dict[str, Any], note_bytes: int) -> dict[str, Any]:
    path = f"{ORG}/guilds/guild_research/big.md"
    workspace["notes"].append(
        {
            "path": path,
            "title": "Big",
            "text": "é" * (note_bytes // 2) + "a" * (note_bytes % 2),
            "access": [{"principal": "guild:guild_research", "role": "read"}],
        }
    )
    for agent in workspace["agents"]:
        if agent["id"] == "a_analyst":
            agent["task"] = f"Use this:\n![[{path}]]\n"
    return workspace


def test_a_run_over_the_embed_budget_is_refused(
    server_factory: ServerFactory, workspace_basic: dict[str, Any]
) -> None:
    server = server_factory(_budget_workspace(workspace_basic, 65_537))
    response = call(server, "POST", "/api/agents/a_analyst/runs")
    assert (response.status_code, response.json()) == (422, {"error": "embed budget exceeded"})


def test_a_run_at_exactly_the_budget_starts(
    server_factory: ServerFactory, workspace_basic: dict[str, Any]
) -> None:
    server = server_factory(_budget_workspace(workspace_basic, 65_536))
    assert _run(server, "a_analyst")["task_source"]["has_embeds"] is True


def test_unknown_agent_and_unknown_run_are_404(live_server: LiveServer) -> None:
    response = call(live_server, "POST", "/api/agents/a_nobody/runs")
    assert (response.status_code, response.json()) == (404, {"error": "no such agent"})
    response = call(live_server, "GET", "/api/runs/run_nothing")
    assert (response.status_code, response.json()) == (404, {"error": "no such run"})


def test_the_runs_task_is_what_taskdesk_expand_prints(live_server: LiveServer) -> None:
    for agent in ("a_scout", "a_writer", "a_analyst", "a_helper"):
        printed = subprocess.run(
            [
                sys.executable,
                "-m",
                "app",
                "expand",
                "--workspace",
                str(WORKSPACE_BASIC),
                "--agent",
                agent,
            ],
            capture_output=True,
            cwd=REPO,
            timeout=60,
            check=True,
        ).stdout
        run = _run(live_server, agent)
        assert task_section(run["system_prompt"]).encode("utf-8") == printed


def test_the_runs_list_is_newest_first_without_prompts(live_server: LiveServer) -> None:
    first = _run(live_server, "a_scout", who="ann")
    second = _run(live_server, "a_scout", who="scout")
    _run(live_server, "a_writer")
    listed = call(live_server, "GET", "/api/agents/a_scout/runs").json()["runs"]
    assert [r["id"] for r in listed] == [second["id"], first["id"]]
    assert [r["created_by_name"] for r in listed] == ["Scout", "Ann"]
    assert listed[1] == {
        "id": first["id"],
        "agent_id": "a_scout",
        "created_at": first["created_at"],
        "created_by_id": "u_ann",
        "created_by_name": "Ann",
        "task_source": first["task_source"],
    }


def test_the_runs_list_of_an_unknown_agent_is_404(live_server: LiveServer) -> None:
    response = call(live_server, "GET", "/api/agents/a_nobody/runs")
    assert (response.status_code, response.json()) == (404, {"error": "no such agent"})
    assert call(live_server, "GET", "/api/agents/a_writer/runs").json() == {"runs": []}
