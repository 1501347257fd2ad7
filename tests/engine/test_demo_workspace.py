"""The demo workspace the app opens on first start: it loads, and it shows the product off."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib.resources import as_file
from typing import Any

import pytest

from app.core.expander import EMBED_RE, Expansion, is_display_path
from app.core.models import BrokenEmbed
from app.core.resource_files import default_task_template, demo_workspace_text, resource
from app.core.workspace import Workspace, load_workspace

OVER_BUDGET_AGENT = "a_librarian"


@pytest.fixture(scope="module")
def demo() -> Iterator[Workspace]:
    with as_file(resource("demo_workspace.json")) as path:
        yield load_workspace(path)


@pytest.fixture(scope="module")
def raw() -> dict[str, Any]:
    return json.loads(demo_workspace_text())


@pytest.fixture(scope="module")
def expansions(demo: Workspace) -> dict[str, Expansion]:
    return {agent.id: demo.expand_for(agent.id) for agent in demo.agents}


def test_org_guilds_and_people(demo: Workspace) -> None:
    assert (demo.org_id, demo.org_name) == ("o_acme", "Acme")
    assert {"Operations", "Research"} <= {g.name for g in demo.guilds}
    operators = [p for p in demo.people if p.type == "operator"]
    assert len(operators) >= 3
    assert (operators[0].id, operators[0].name, operators[0].token) == (
        "u_ann",
        "Ann",
        "ann-secret",
    )
    assert {"Bob", "Chen"} <= {p.name for p in operators}
    assert any(p.type == "member" for p in demo.people)


def test_notes_collections_and_other_files(demo: Workspace) -> None:
    notes = [f for f in demo.files.values() if f.kind == "note"]
    assert len(notes) >= 15
    levels = {f.display_path.split("/")[2] for f in notes}
    assert {"guilds", "agents"} <= levels and len(levels) >= 3  # org level: anything else
    assert all(f.title and f.text for f in notes)
    assert sum(f.kind == "collection" for f in demo.files.values()) >= 2
    notes_with_tables = [f for f in notes if "| --- |" in (f.text or "")]
    notes_with_code = [f for f in notes if "```" in (f.text or "")]
    assert len(notes_with_tables) >= 3 and len(notes_with_code) >= 2


def test_agents_and_where_their_tasks_come_from(demo: Workspace, raw: dict[str, Any]) -> None:
    assert len(demo.agents) >= 6
    by_id = {a.id: a for a in demo.agents}
    focus_only = [a for a in raw["agents"] if "focus" in a and "task" not in a]
    neither = [a for a in raw["agents"] if "focus" not in a and "task" not in a]
    assert len(focus_only) == 1 and len(neither) == 1
    assert by_id[focus_only[0]["id"]].live_task == focus_only[0]["focus"]
    assert by_id[neither[0]["id"]].live_task == default_task_template()


def test_authored_tasks_have_the_spec_shape(demo: Workspace, raw: dict[str, Any]) -> None:
    authored = [
        a for a in demo.agents if any(r["id"] == a.id and "task" in r for r in raw["agents"])
    ]
    assert len(authored) >= 4
    for agent in authored:
        task = agent.live_task
        headings = [line for line in task.splitlines() if line.startswith("## ")]
        assert headings == ["## Inputs", "## Work", "## Outputs", "## Files"], agent.id
        assert not task.startswith("#"), f"{agent.id}: a Task opens with a line, not a heading"
        assert 150 <= len(task.split()) <= 450, agent.id
        assert EMBED_RE.search(task), agent.id


def test_history_by_several_people(demo: Workspace) -> None:
    savers = {s.by for a in demo.agents for s in a.saves}
    assert len(savers) >= 3
    assert max(len(a.saves) for a in demo.agents) >= 3
    for agent in demo.agents:
        times = [s.at for s in agent.saves]
        assert times == sorted(times), f"{agent.id}: saves are oldest first"


def test_only_the_librarian_is_over_budget(expansions: dict[str, Expansion]) -> None:
    over = {agent_id for agent_id, e in expansions.items() if e.over_budget}
    assert over == {OVER_BUDGET_AGENT}
    assert all(e.embedded_bytes < 40_000 for a, e in expansions.items() if a != OVER_BUDGET_AGENT)


def test_embeds_inline_at_two_hops_and_collections(expansions: dict[str, Expansion]) -> None:
    assert any(n.hop == 2 for e in expansions.values() for n in e.notes)
    assert sum(bool(e.collections) for e in expansions.values()) >= 2


def test_every_kind_of_unreachable_embed(demo: Workspace, expansions: dict[str, Expansion]) -> None:
    broken: list[BrokenEmbed] = [b for e in expansions.values() for b in e.broken]
    paths = [b.path for b in broken]
    assert any(p.startswith("recipe:") for p in paths)
    assert any(p.startswith("guild/") for p in paths)
    assert any(p.startswith("org/") and not p.startswith("org/o_acme/") for p in paths)
    local = [p for p in paths if is_display_path(p, demo.org_id)]
    assert any(p not in demo.files for p in local), "a missing note"
    assert any(demo.files[p].kind == "note" for p in local if p in demo.files), "no access"
    assert any(demo.files[p].kind == "file" for p in local if p in demo.files), "Memory"
    assert any(b.hop == 2 for b in broken)
    healthy = [a for a, e in expansions.items() if e.notes and not e.broken]
    assert healthy, "at least one agent reaches every file it embeds"
