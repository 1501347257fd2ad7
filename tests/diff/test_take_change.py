"""Restore by change: one block of a compare taken back, alone, into the operator's text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.core.diff_model import build_diff
from app.core.take_change import take_change

OLD = "# Rules\n\nBe brief.\n\nSign replies.\n\nNo jargon."
NEW = "# House rules\n\nBe brief.\n\nSign replies.\n\nNo jargon at all."


def test_each_change_comes_back_alone() -> None:
    model = build_diff(OLD, NEW)
    first, last = model.changes
    assert take_change(OLD, NEW, first, NEW) == NEW.replace("# House rules", "# Rules")
    assert take_change(OLD, NEW, last, NEW) == NEW.replace("No jargon at all.", "No jargon.")


def test_unsaved_edits_elsewhere_stay() -> None:
    model = build_diff(OLD, NEW)
    mine = NEW.replace("Be brief.", "Be very brief.")
    taken = take_change(OLD, NEW, model.changes[0], mine)
    assert taken == mine.replace("# House rules", "# Rules")


def test_unsaved_edits_of_the_same_lines_refuse() -> None:
    model = build_diff(OLD, NEW)
    mine = NEW.replace("# House rules", "# Our rules")
    assert take_change(OLD, NEW, model.changes[0], mine) is None


def test_a_removed_block_comes_back_with_its_line_break() -> None:
    old = "a\nb\nc"
    new = "a\nc"
    [change] = build_diff(old, new).changes
    assert take_change(old, new, change, new) == old


lines = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "d", "\n", "é\r\n"]), max_size=8)


@given(lines, lines)
def test_taking_every_change_gives_the_old_text_back(old_lines, new_lines) -> None:
    old, new = "".join(old_lines), "".join(new_lines)
    text = new
    # Taking the changes last to first keeps the earlier ones' line numbers valid.
    for change in reversed(build_diff(old, new).changes):
        taken = take_change(old, new, change, text)
        assert taken is not None
        text = taken
    assert text == old
