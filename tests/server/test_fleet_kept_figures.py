"""The fleet's health answered from kept figures (the used-by index's sizes and broken
embeds, the kept shape findings) gives the rows the expander and the shape check give, after
every kind of change and after a restart, on both databases."""

from __future__ import annotations

from typing import Any

from app.core.expander import expand_embeds, task_display_path
from app.core.fleet_rows import expansion_facts, health_row
from app.core.models import Reader
from app.server.db_records import org_file
from tests.live_server import LiveServer, ServerFactory
from tests.server.http_calls import ORG, call, get_task, put_task

BOTH_BACKENDS = True

RULES = f"{ORG}/rules.md"
STYLE = f"{ORG}/style.md"
ORG_ID = ORG.split("/")[1]


def _workspace() -> dict[str, Any]:
    tasks = [
        f"# Agent 0\n\nExport each report as CSV.\n\n## Work\n![[{RULES}]]\n",
        "Opening line.\n\n## Inputs\n- a\n\n## Work\n- b\n\n## Outputs\n- c\n\n## Files\n- d\n",
        f"# Broken\n\n![[{ORG}/missing.md]]\n\n![[{STYLE}]]\n",
    ]
    return {
        "org": {"id": ORG_ID, "name": "Acme"},
        "guilds": [{"id": "guild_ops", "name": "Operations"}],
        "people": [{"id": "u_ann", "name": "Ann", "type": "operator", "token": "ann-secret"}],
        "agents": [
            {"id": f"a_{n}", "name": f"Agent {n}", "guild": "guild_ops", "task": task}
            for n, task in enumerate(tasks)
        ],
        "notes": [
            {
                "path": RULES,
                "title": "Rules",
                "text": "Never page the night shift.\n",
                "access": [{"principal": "org", "role": "read"}],
            },
            {
                "path": STYLE,
                "title": "Style",
                "text": f"Short sentences.\n![[{RULES}]]\n",
                "access": [{"principal": "org", "role": "read"}],
            },
        ],
    }


def _expected(server: LiveServer) -> list[dict[str, Any]]:
    """Each agent's row worked out afresh: its live Task expanded over the files as stored."""
    files = {
        row[0]: org_file(row)
        for row in server.query(
            "SELECT display_path, kind, title, text, version, access FROM files"
            " WHERE deleted_at IS NULL"
        )
    }
    rows = []
    agents = server.query("SELECT id, name, guild_id, task_version, task FROM agents ORDER BY id")
    for agent_id, name, guild_id, version, task in agents:
        expansion = expand_embeds(
            task,
            org_id=ORG_ID,
            reader=Reader(agent_id, guild_id),
            lookup=files,
            task_path=task_display_path(ORG_ID, agent_id),
        )
        rows.append(
            health_row(agent_id, name, guild_id, version, task, **expansion_facts(expansion))
        )
    return rows


def _served(server: LiveServer) -> list[dict[str, Any]]:
    answer = call(server, "GET", "/api/org/health")
    assert answer.status_code == 200, answer.text
    rows: list[dict[str, Any]] = answer.json()["agents"]
    return rows


def _kept_hashes(server: LiveServer) -> set[str]:
    return {row[0] for row in server.query("SELECT task_hash FROM task_shapes")}


def _live_hashes(server: LiveServer) -> set[str]:
    return {row[0] for row in server.query("SELECT task_hash FROM agents")}


def test_health_from_kept_figures_equals_a_fresh_expansion_after_each_change(
    server_factory: ServerFactory,
) -> None:
    server = server_factory(_workspace())
    # Seeding keeps every live Task's findings: the first read checks none.
    assert _kept_hashes(server) == _live_hashes(server)
    assert _served(server) == _expected(server)
    # A save that changes the Task's embeds, and one that keeps them.
    task = get_task(server, "a_1")
    body = {"content": task["content"] + f"\n![[{STYLE}]]\n", "expected_version": 1}
    assert put_task(server, "a_1", body).status_code == 200
    assert put_task(server, "a_0", {"content": "Only prose.", "expected_version": 1}).status_code
    assert _served(server) == _expected(server)
    # The findings of the saved Tasks are kept by the read that met them; old ones dropped.
    assert _kept_hashes(server) == _live_hashes(server)
    # A note edited in place (same embeds: sizes follow), then one whose embeds change.
    server.put_note(RULES, text="Page the night shift only for outages, and say why.\n")
    assert _served(server) == _expected(server)
    server.put_note(STYLE, text=f"Short sentences.\n![[{ORG}/missing.md]]\n")
    assert _served(server) == _expected(server)
    # A note that was missing appears: broken embeds mend.
    server.put_note(f"{ORG}/missing.md", title="Found", text="Here now.\n")
    assert _served(server) == _expected(server)
    # A change set over every Task.
    changes = []
    for agent_id in ("a_0", "a_1", "a_2"):
        live = get_task(server, agent_id)
        content = live["content"] + "\n## Inputs\n- more\n"
        changes.append(
            {"agent_id": agent_id, "expected_version": live["version"], "content": content}
        )
    made = call(server, "POST", "/api/org/change-sets", json={"title": "t", "changes": changes})
    assert made.status_code == 201, made.text
    assert _served(server) == _expected(server)
    # After a restart the rows come from what the database kept.
    server.restart()
    assert _kept_hashes(server) == _live_hashes(server)
    assert _served(server) == _expected(server)


def test_a_run_is_compared_with_what_a_run_now_gets(server_factory: ServerFactory) -> None:
    server = server_factory(_workspace())
    assert call(server, "POST", "/api/agents/a_2/runs").status_code == 201
    rows = {r["id"]: r for r in _served(server)}
    assert rows["a_2"]["prompt_changed_since_run"] is False
    assert rows["a_0"]["prompt_changed_since_run"] is None
    server.put_note(RULES, text="Changed for every run that inlines it.\n")
    server.restart()
    rows = {r["id"]: r for r in _served(server)}
    assert rows["a_2"]["prompt_changed_since_run"] is True
    run_fields = ("last_run_at", "prompt_changed_since_run")
    assert [{k: v for k, v in r.items() if k not in run_fields} for r in rows.values()] == [
        {k: v for k, v in r.items() if k not in run_fields} for r in _expected(server)
    ]
