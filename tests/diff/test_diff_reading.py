"""The compare as read aloud: each changed line a row, each change one sentence."""

from __future__ import annotations

from app.core.diff_model import build_diff
from app.core.diff_reading import change_rows, change_sentence, row_sentence

OLD = "keep\nold one\nold two\ngone\nkeep too\n"
NEW = "keep\nnew one\nnew two\nkeep too\nadded\n"


def test_each_changed_line_is_one_row_with_both_numbers_and_both_texts() -> None:
    model = build_diff(OLD, NEW)
    rows = change_rows(model, OLD, NEW)
    kinds = [(r.kind, r.old_line, r.new_line, r.old_text, r.new_text) for r in rows]
    assert ("changed", 2, 2, "old one", "new one") in kinds
    assert ("removed", 4, None, "gone", "") in kinds
    assert ("added", None, 5, "", "added") in kinds
    assert all(r.kind != "changed" or (r.old_line and r.new_line) for r in rows)
    assert sorted({r.change for r in rows}) == list(range(model.change_count))


def test_a_change_says_where_it_is_and_what_it_does() -> None:
    model = build_diff(OLD, NEW)
    first = change_sentence(model, 0)
    assert first.startswith(f"Change 1 of {model.change_count}, lines 2 to 3 on the right")
    assert "2 lines changed" in first and "1 line removed" in first
    last = change_sentence(model, model.change_count - 1)
    assert (
        last
        == f"Change {model.change_count} of {model.change_count}, line 5 on the right: 1 line added"
    )


def test_a_row_reads_as_one_sentence() -> None:
    rows = change_rows(build_diff(OLD, NEW), OLD, NEW)
    sentences = [row_sentence(r) for r in rows]
    assert "Line 2 changed to line 2: was old one, now new one" in sentences
    assert "Line 4 on the left removed: gone" in sentences
    assert "Line 5 on the right added: added" in sentences


def test_a_pure_removal_is_placed_on_the_left() -> None:
    old, new = "a\nb\nc\n", "a\nc\n"
    model = build_diff(old, new)
    assert change_sentence(model, 0) == "Change 1 of 1, line 2 on the left: 1 line removed"
