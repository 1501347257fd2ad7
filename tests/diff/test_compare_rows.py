"""The compare view's rows, without Qt: alignment, context, folds and opening them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.compare_rows import CONTEXT_LINES, RowPlan
from app.core.diff_model import build_diff, split_lines


def pairs(plan: RowPlan) -> list[tuple[str, int | None, int | None]]:
    return [
        (row.kind, row.old_line, row.new_line)
        for row in (plan.row(i) for i in range(plan.row_count))
    ]


def numbered(count: int) -> list[str]:
    return [f"line {n}\n" for n in range(count)]


def test_rows_pair_lines_and_pad_the_shorter_side() -> None:
    plan = RowPlan(build_diff("a\nb\nc\nd\n", "a\nc\nX\nd\ne\n"))
    assert pairs(plan) == [
        ("same", 0, 0),
        ("change", 1, None),
        ("same", 2, 1),
        ("change", None, 2),
        ("same", 3, 3),
        ("change", None, 4),
    ]
    assert [plan.row(i).change for i in range(plan.row_count)] == [-1, 0, -1, 1, -1, 2]


def test_long_unchanged_runs_fold_around_context() -> None:
    old = numbered(100)
    new = list(old)
    new[50] = "changed\n"
    plan = RowPlan(build_diff("".join(old), "".join(new)))
    kinds = [run.kind for run in plan.runs]
    assert kinds == ["fold", "same", "change", "same", "fold"]
    head, *_middle, tail = plan.runs
    assert (head.length, tail.length) == (50 - CONTEXT_LINES, 49 - CONTEXT_LINES)
    assert plan.row_count == 1 + CONTEXT_LINES + 1 + CONTEXT_LINES + 1
    fold = plan.row(0)
    assert (fold.kind, fold.hidden, fold.old_line, fold.new_line) == ("fold", 47, 0, 0)
    assert plan.row(1).old_line == 47  # the context starts where the fold ends
    assert list(plan.change_rows(0)) == [1 + CONTEXT_LINES]
    assert plan.fold_count == 2


def test_folds_hide_at_least_four_lines() -> None:
    def plan_with_changes_at(*at: int) -> RowPlan:
        old = numbered(at[-1] + 6)
        new = list(old)
        for n in at:
            new[n] = "changed\n"
        return RowPlan(build_diff("".join(old), "".join(new)))

    # 9 unchanged lines between the changes: 3 + 3 of context leave 3, too few to fold.
    assert plan_with_changes_at(4, 14).fold_count == 0
    # 10 leave 4: folded.
    plan = plan_with_changes_at(4, 15)
    [fold] = [run for run in plan.runs if run.kind == "fold"]
    assert fold.length == 4


def test_opening_a_fold_shows_its_lines_and_keeps_other_folds() -> None:
    old = numbered(200)
    new = list(old)
    new[100] = "changed\n"
    plan = RowPlan(build_diff("".join(old), "".join(new)))
    opened = plan.with_fold_opened(0)
    assert opened.fold_count == 1
    assert opened.row_count == plan.row_count + plan.row(0).hidden - 1
    assert pairs(opened)[:3] == [("same", 0, 0), ("same", 1, 1), ("same", 2, 2)]
    assert opened.with_fold_opened(0) is opened  # no fold there any more
    last_fold = opened.row_count - 1
    assert opened.with_fold_opened(last_fold).fold_count == 0
    assert plan.with_folding(False).fold_count == 0
    assert plan.with_folding(False).with_folding(True).fold_count == 2


def test_identical_texts_are_one_fold() -> None:
    text = "".join(numbered(30))
    plan = RowPlan(build_diff(text, text))
    assert pairs(plan) == [("fold", 0, 0)]
    assert plan.row(0).hidden == 30


def test_next_change_from_a_row() -> None:
    old = numbered(60)
    new = list(old)
    new[10] = new[40] = "changed\n"
    plan = RowPlan(build_diff("".join(old), "".join(new)))
    first, second = plan.change_rows(0).start, plan.change_rows(1).start
    assert plan.change_at_or_after(0) == 0
    assert plan.change_at_or_after(first + 1) == 1
    assert plan.change_at_or_after(second + 1) is None


@settings(deadline=None, max_examples=150)
@given(
    st.lists(st.sampled_from(["a\n", "b\n", "c\n", "\n", "a b c\n"]), max_size=40),
    st.lists(st.sampled_from(["a\n", "b\n", "x\n", "\n"]), max_size=40),
    st.booleans(),
)
def test_every_line_is_shown_once_in_order_when_folds_are_open(
    old_lines: list[str], new_lines: list[str], folding: bool
) -> None:
    old, new = "".join(old_lines), "".join(new_lines)
    plan = RowPlan(build_diff(old, new), folding=folding)
    shown_old: list[int] = []
    shown_new: list[int] = []
    for i in range(plan.row_count):
        row = plan.row(i)
        if row.kind == "fold":
            assert row.old_line is not None and row.new_line is not None
            shown_old.extend(range(row.old_line, row.old_line + row.hidden))
            shown_new.extend(range(row.new_line, row.new_line + row.hidden))
            continue
        if row.old_line is not None:
            shown_old.append(row.old_line)
        if row.new_line is not None:
            shown_new.append(row.new_line)
        if row.kind == "same":
            assert split_lines(old)[row.old_line] == split_lines(new)[row.new_line]  # type: ignore[index]
    assert shown_old == list(range(len(split_lines(old))))
    assert shown_new == list(range(len(split_lines(new))))
