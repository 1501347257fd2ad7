"""The References golden cases: each folder under golden/ is a workspace, an optional history
of earlier runs, and the references of its first agent as ``taskdesk references --json``
prints them."""

from __future__ import annotations

import json
from pathlib import Path

from app.core.expander import task_display_path
from app.core.marker_reasons import history_from_json
from app.core.models import Reader
from app.core.references import References, find_references
from app.core.workspace import load_workspace

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p for p in GOLDEN.iterdir() if (p / "workspace.json").is_file())


def references_of_case(folder: Path) -> References:
    workspace = load_workspace(folder / "workspace.json")
    agent = workspace.agents[0]
    history_file = folder / "history.json"
    history = (
        history_from_json(json.loads(history_file.read_text(encoding="utf-8")))
        if history_file.is_file()
        else ()
    )
    return find_references(
        agent.live_task,
        org_id=workspace.org_id,
        reader=Reader(agent.id, agent.guild_id),
        lookup=workspace.files,
        task_path=task_display_path(workspace.org_id, agent.id),
        history=history,
    )


def expected(folder: Path) -> list[dict[str, object]]:
    data: list[dict[str, object]] = json.loads(
        (folder / "expected.json").read_text(encoding="utf-8")
    )
    return data
