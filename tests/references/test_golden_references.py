"""Golden References cases: one folder per marker reason, and one for every outcome by hop."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.marker_reasons import REASONS
from app.core.references import OUTCOMES
from tests.references.golden_cases import CASES, expected, references_of_case


@pytest.mark.parametrize("folder", CASES, ids=[p.name for p in CASES])
def test_references_match_the_golden_json(folder: Path) -> None:
    assert references_of_case(folder).to_json() == expected(folder)


@pytest.mark.parametrize("reason", REASONS)
def test_each_reason_has_its_own_case(reason: str) -> None:
    folder = next((p for p in CASES if p.name == f"reason_{reason}"), None)
    assert folder is not None, f"no golden case reason_{reason}"
    assert reason in {item["reason"] for item in expected(folder)}


def test_the_cases_show_every_outcome_and_hop() -> None:
    items = [item for folder in CASES for item in expected(folder)]
    assert {item["outcome"] for item in items} == set(OUTCOMES)
    assert {item["hop"] for item in items} == {1, 2, 3}
    # Markers at hop 2 name the note that holds them, as embed-status does.
    assert any(item["outcome"] == "marker" and item["hop"] == 2 for item in items)


def test_every_not_display_path_form_is_told_apart() -> None:
    folder = next(p for p in CASES if p.name == "reason_not_display_path")
    details = {item["detail"] for item in expected(folder)}
    assert details == {
        "recipe_link",
        "recipe_guild",
        "recipe_agent",
        "recipe_org",
        "no_rest",
        "empty_segment",
        "dot_segment",
        "backslash",
        "empty",
        "no_org_prefix",
    }
