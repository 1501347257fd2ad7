"""A workspace file that is not valid text is refused by entry, never with a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.core.workspace import WorkspaceError, load_workspace


def minimal(task: str, note_text: str) -> dict[str, Any]:
    return {
        "org": {"id": "o_acme", "name": "Acme"},
        "guilds": [{"id": "guild_ops", "name": "Operations"}],
        "people": [{"id": "u_ann", "name": "Ann", "type": "operator", "token": "ann-secret"}],
        "agents": [{"id": "a_scout", "guild": "guild_ops", "task": task}],
        "notes": [{"path": "org/o_acme/n.md", "text": note_text, "access": []}],
    }


@pytest.mark.parametrize(
    ("task", "note_text", "message"),
    [
        ("x \ud800", "fine", r"agents\[0\]: task holds an unpaired surrogate \('\\ud800'\)"),
        ("fine", "bad \udc00", r"notes\[0\]: text holds an unpaired surrogate \('\\udc00'\)"),
    ],
)
def test_lone_surrogates_are_refused_by_entry(
    tmp_path: Path, task: str, note_text: str, message: str
) -> None:
    path = tmp_path / "workspace.json"
    # json.dumps writes a lone surrogate as the escape "\ud800", as any JSON writer may.
    path.write_text(json.dumps(minimal(task, note_text)), encoding="utf-8")
    with pytest.raises(WorkspaceError, match=message):
        load_workspace(path)


def test_text_beyond_the_basic_plane_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "workspace.json"
    path.write_text(json.dumps(minimal("emoji \U0001f680", "ok \U0001f4dd")), encoding="utf-8")
    workspace = load_workspace(path)
    assert workspace.agents[0].task == "emoji \U0001f680"
