"""How many lines a diff removes and adds: what the restore confirmation says (no Qt)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.diff_model import build_diff


def test_counts_each_side_of_a_change() -> None:
    model = build_diff("a\nb\nc\nd\n", "a\nB\nnew\nc\n")
    # b → B and new in its place, d dropped: two old lines go, two new lines come.
    assert model.removed_lines == 2
    assert model.added_lines == 2
    assert model.changed_lines == 4


def test_pure_insert_and_pure_delete() -> None:
    grown = build_diff("one\n", "one\ntwo\nthree\n")
    assert (grown.removed_lines, grown.added_lines) == (0, 2)
    shrunk = build_diff("one\ntwo\nthree\n", "one\n")
    assert (shrunk.removed_lines, shrunk.added_lines) == (2, 0)


def test_equal_texts_change_nothing() -> None:
    model = build_diff("same\ntext\n", "same\ntext\n")
    assert (model.removed_lines, model.added_lines) == (0, 0)


LINES = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "\n", "é\n"]), max_size=12)


@settings(max_examples=200, deadline=None)
@given(LINES, LINES)
def test_counts_are_the_lines_outside_the_equal_chunks(old: list[str], new: list[str]) -> None:
    model = build_diff("".join(old), "".join(new))
    equal = sum(c.old_end - c.old_start for c in model.chunks if c.tag == "equal")
    assert model.removed_lines == len(old) - equal
    assert model.added_lines == len(new) - equal
    assert model.removed_lines + model.added_lines == model.changed_lines
