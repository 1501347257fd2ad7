"""Counts in words and headlines as sentences: never "1 collections", never a lowercase "the"
to start a summary."""

from __future__ import annotations

from app.core.wording import counted, sentence
from widgets.insight.system_view import source_headline


def test_counted_is_singular_for_exactly_one() -> None:
    assert counted(1, "collection") == "1 collection"
    assert counted(0, "collection") == "0 collections"
    assert counted(2_048, "note") == "2,048 notes"
    assert counted(2, "person", "people") == "2 people"


def test_a_summary_starts_with_a_capital() -> None:
    assert sentence("the Task is unchanged (v3)") == "The Task is unchanged (v3)"
    assert sentence("") == ""


def test_a_runs_headline_says_1_collection() -> None:
    from app.client.runs import RunInfo, TaskSource

    source = TaskSource(3, "0" * 64, "org/o/agents/a/task.md", True, ("org/o/x",), (), ("org/o/x",))
    line = source_headline(RunInfo("r1", "<task>\n</task>", source))
    assert "0 notes inlined, 1 collection." in line
