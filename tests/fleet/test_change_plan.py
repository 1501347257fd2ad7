"""The change set's pure parts: the edits, the rows' budget and refusals, the rebase."""

from __future__ import annotations

import pytest

from app.core.change_diff_text import diff_lines
from app.core.change_plan import (
    CONFLICTS_SINCE,
    BadEditError,
    TaskAsIs,
    build_plan,
    insert_after_heading_edit,
    rebase_row,
    remove_line_edit,
    replace_edit,
    ticked_changes,
)
from app.core.shape_codes import task_shape_codes


def _task(content: str, agent_id: str = "a_1", embedded: int = 10) -> TaskAsIs:
    return TaskAsIs(agent_id, "One", "guild_ops", 3, content, embedded)


def _never(task: TaskAsIs, text: str) -> int:
    raise AssertionError("no recount: the embeds did not change")


def test_replace_is_case_insensitive_and_regex_takes_groups() -> None:
    assert replace_edit("csv", "Parquet")("CSV and csv") == "Parquet and Parquet"
    assert replace_edit("a.b", "x")("a.b axb") == "x axb"  # plain text: the dot is a dot
    assert replace_edit(r"(\w+)@", r"\1 at ", regex=True)("ann@") == "ann at "
    with pytest.raises(BadEditError, match="doesn't compile"):
        replace_edit("(", "x", regex=True)
    with pytest.raises(BadEditError, match="doesn't fit"):
        replace_edit("a", r"\2", regex=True)
    with pytest.raises(BadEditError, match="empty"):
        replace_edit("", "x")


def test_insert_after_a_heading_and_remove_a_line() -> None:
    text = "# T\n\n## Work\n- one\n"
    assert (
        insert_after_heading_edit("work", "![[n.md]]")(text) == "# T\n\n## Work\n![[n.md]]\n- one\n"
    )
    assert insert_after_heading_edit("Files", "x")(text) == text
    assert remove_line_edit("- one")(text) == "# T\n\n## Work\n"


def test_a_row_keeps_the_budget_when_the_embeds_stay_and_recounts_when_they_change() -> None:
    (row,) = build_plan([_task("Say CSV.\n")], replace_edit("CSV", "Parquet"), _never)
    assert (row.embedded_before, row.embedded_after) == (10, 10)
    assert (row.task_bytes_before, row.task_bytes_after) == (9, 13)
    assert row.ticked and row.can_go
    assert row.shape_after == task_shape_codes("Say Parquet.\n")
    (row,) = build_plan(
        [_task("Say CSV.\n")], replace_edit("CSV", "![[big.md]]"), lambda task, text: 70_000
    )
    assert row.embedded_after == 70_000
    assert not row.ticked and "over the 64 KB budget" in row.refusal
    assert ticked_changes([row]) == []


def test_a_task_pushed_past_256_kb_is_marked_and_left_out() -> None:
    (row,) = build_plan([_task("x" * 10_000)], replace_edit("x", "y" * 30), _never)
    assert not row.ticked and not row.can_go
    assert row.refusal == "Left out: the Task would be 300,000 bytes, over the 256 KB limit."


def test_a_task_the_edit_leaves_alone_is_not_listed() -> None:
    assert build_plan([_task("Nothing here.\n")], replace_edit("CSV", "P"), _never) == []


def test_a_row_saved_since_is_merged_onto_the_live_text_or_left_out() -> None:
    before = "line one CSV\nline two\nline three\n"
    (row,) = build_plan([_task(before)], replace_edit("CSV", "Parquet"), _never)
    live = _task("line one CSV\nline two\nline three edited\n")
    merged = rebase_row(row, live, _never)
    assert merged.after == "line one Parquet\nline two\nline three edited\n"
    assert merged.rebased and merged.ticked and merged.expected_version == 3
    clash = rebase_row(row, _task("line one TSV\nline two\nline three\n"), _never)
    assert clash.refusal == CONFLICTS_SINCE and not clash.ticked


def test_the_diff_lists_changed_lines_with_a_little_around_them() -> None:
    before = "".join(f"{n}\n" for n in range(10))
    after = before.replace("5\n", "five\n")
    assert diff_lines(before, after) == [
        (" ", "3"),
        (" ", "4"),
        ("-", "5"),
        ("+", "five"),
        (" ", "6"),
        (" ", "7"),
    ]
