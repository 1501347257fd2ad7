"""Golden expander cases: each folder under golden/ is a workspace and its exact expansion."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.core.expander import Expansion
from app.core.workspace import Workspace, load_workspace

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p for p in GOLDEN.iterdir() if (p / "workspace.json").is_file())


def expand_case(folder: Path) -> tuple[Workspace, Expansion]:
    workspace = load_workspace(folder / "workspace.json")
    return workspace, workspace.expand_for(workspace.agents[0].id)


def facts(expansion: Expansion) -> dict[str, Any]:
    """The expansion's facts in the shape of expected.json."""
    return {
        "embeds": list(expansion.embeds),
        "broken": [b.to_json() for b in expansion.broken],
        "embedded_bytes": expansion.embedded_bytes,
        "over_budget": expansion.over_budget,
        "notes": [n.display_path for n in expansion.notes],
        "collections": list(expansion.collections),
    }


def test_there_are_enough_cases() -> None:
    assert len(CASES) >= 30


@pytest.mark.parametrize("folder", CASES, ids=[p.name for p in CASES])
def test_expansion_is_byte_exact(folder: Path) -> None:
    _, expansion = expand_case(folder)
    expected = (folder / "expected.txt").read_bytes()
    assert expansion.text.encode("utf-8") == expected


@pytest.mark.parametrize(
    "folder",
    [p for p in CASES if (p / "expected.json").is_file()],
    ids=[p.name for p in CASES if (p / "expected.json").is_file()],
)
def test_expansion_facts(folder: Path) -> None:
    _, expansion = expand_case(folder)
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    unknown = set(expected) - set(facts(expansion))
    assert not unknown, f"expected.json has keys the test does not know: {unknown}"
    actual = facts(expansion)
    assert {key: actual[key] for key in expected} == expected
