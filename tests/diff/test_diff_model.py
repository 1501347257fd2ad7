"""The pure diff model on tiny strings, and against difflib on random ones."""

from __future__ import annotations

import difflib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.cancel import CancelledError, CancelToken
from app.core.diff_model import (
    ROW_BREAK_MARK,
    aligned_texts,
    build_diff,
    diff_from_blocks,
    display_line,
    line_keys,
    matching_blocks,
    split_lines,
    word_spans,
)


def tags(old: str, new: str) -> list[tuple[str, int, int, int, int]]:
    return [
        (c.tag, c.old_start, c.old_end, c.new_start, c.new_end) for c in build_diff(old, new).chunks
    ]


def test_equal_texts_are_one_equal_chunk_and_no_change() -> None:
    model = build_diff("a\nb\n", "a\nb\n")
    assert tags("a\nb\n", "a\nb\n") == [("equal", 0, 2, 0, 2)]
    assert model.change_count == 0
    assert model.changed_lines == 0


def test_replace() -> None:
    assert tags("a\nb\nc\n", "a\nX\nc\n") == [
        ("equal", 0, 1, 0, 1),
        ("replace", 1, 2, 1, 2),
        ("equal", 2, 3, 2, 3),
    ]


def test_delete() -> None:
    assert tags("a\nb\nc\n", "a\nc\n") == [
        ("equal", 0, 1, 0, 1),
        ("delete", 1, 2, 1, 1),
        ("equal", 2, 3, 1, 2),
    ]


def test_insert() -> None:
    assert tags("a\nc\n", "a\nb\nc\n") == [
        ("equal", 0, 1, 0, 1),
        ("insert", 1, 1, 1, 2),
        ("equal", 1, 2, 2, 3),
    ]


def test_unequal_replace_keeps_both_ranges() -> None:
    model = build_diff("a\nb\nz\n", "a\nx\ny\nw\nz\n")
    (change,) = model.changes
    assert (change.tag, change.old_start, change.old_end, change.new_start, change.new_end) == (
        "replace",
        1,
        2,
        1,
        4,
    )
    assert change.rows == 3


def test_empty_sides() -> None:
    assert tags("", "") == []
    assert build_diff("", "").row_count == 0
    assert tags("", "a\nb\n") == [("insert", 0, 0, 0, 2)]
    assert tags("a\nb\n", "") == [("delete", 0, 2, 0, 0)]
    assert build_diff("", "a\nb").change_count == 1


def test_trailing_newline_difference_is_a_change() -> None:
    model = build_diff("a\nb", "a\nb\n")
    assert [c.tag for c in model.chunks] == ["equal", "replace"]
    assert model.change_count == 1
    assert split_lines("a\nb") == ["a\n", "b"]
    assert split_lines("a\nb\n") == ["a\n", "b\n"]


def test_crlf_against_lf_is_a_change_but_displays_the_same() -> None:
    model = build_diff("a\r\nb\r\n", "a\nb\r\n")
    assert [c.tag for c in model.chunks] == ["replace", "equal"]
    assert display_line("a\r\n") == display_line("a\n") == "a"
    left, right = aligned_texts(model, "a\r\nb\r\n", "a\nb\r\n")
    assert left == right == "a\nb"


def test_unicode_lines() -> None:
    old = "café ☕\nnaïve\n日本語\n🙂 ok\n"
    new = "café ☕\nnaive\n日本語\n🙂 ok\n"
    assert tags(old, new) == [
        ("equal", 0, 1, 0, 1),
        ("replace", 1, 2, 1, 2),
        ("equal", 2, 4, 2, 4),
    ]


def test_characters_that_break_rows_in_qt_are_made_visible() -> None:
    mark = ROW_BREAK_MARK
    assert display_line("a\rb\u2028c\u2029d\x0ce\n") == f"a{mark}b{mark}c{mark}d{mark}e"


def test_aligned_texts_pad_with_fillers() -> None:
    old, new = "a\nb\nc\n", "a\nc\nd\ne\n"
    left, right = aligned_texts(build_diff(old, new), old, new)
    assert left.split("\n") == ["a", "b", "c", "", ""]
    assert right.split("\n") == ["a", "", "c", "d", "e"]


def test_next_and_previous_change_by_row() -> None:
    model = build_diff("a\nb\nc\nd\ne\n", "a\nB\nc\nd\nE\n")
    assert [c.row_start for c in model.changes] == [1, 4]
    assert model.next_change(-1) == 0
    assert model.next_change(1) == 1
    assert model.next_change(4) is None
    assert model.previous_change(5) == 1
    assert model.previous_change(4) == 0
    assert model.previous_change(1) is None


def test_chunks_are_immutable() -> None:
    chunk = build_diff("a\n", "b\n").chunks[0]
    try:
        chunk.tag = "equal"  # type: ignore[misc]
    except AttributeError:
        pass
    else:
        raise AssertionError("a chunk must not change once built")


def test_word_spans_mark_the_changed_words() -> None:
    old_spans, new_spans = word_spans("the quick brown fox", "the slow brown fox")
    assert [("the quick brown fox"[a:b]) for a, b in old_spans] == ["quick"]
    assert [("the slow brown fox"[a:b]) for a, b in new_spans] == ["slow"]


def test_word_spans_join_a_changed_phrase() -> None:
    old, new = "keep a b c keep", "keep x y z keep"
    old_spans, new_spans = word_spans(old, new)
    assert [old[a:b] for a, b in old_spans] == ["a b c"]
    assert [new[a:b] for a, b in new_spans] == ["x y z"]


def test_word_spans_of_an_insertion_only_mark_the_new_side() -> None:
    old_spans, new_spans = word_spans("send the report", "send the weekly report")
    assert old_spans == ()
    assert [("send the weekly report")[a:b] for a, b in new_spans] == ["weekly "]


def test_word_spans_unicode_offsets_are_code_points() -> None:
    old, new = "🙂 café noir", "🙂 café crème"
    old_spans, new_spans = word_spans(old, new)
    assert [old[a:b] for a, b in old_spans] == ["noir"]
    assert [new[a:b] for a, b in new_spans] == ["crème"]


def test_word_spans_of_equal_lines_are_empty() -> None:
    assert word_spans("same", "same") == ((), ())


def difflib_changed_lines(old: str, new: str) -> int:
    matcher = difflib.SequenceMatcher(None, split_lines(old), split_lines(new), autojunk=False)
    return sum((i2 - i1) + (j2 - j1) for t, i1, i2, j1, j2 in matcher.get_opcodes() if t != "equal")


lines_of = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "\n", "a", "b\r\n"]), max_size=14)


@settings(max_examples=400, deadline=None)
@given(lines_of, lines_of)
def test_never_more_changed_lines_than_difflib(old_lines: list[str], new_lines: list[str]) -> None:
    old, new = "".join(old_lines), "".join(new_lines)
    model = build_diff(old, new)
    assert model.changed_lines <= difflib_changed_lines(old, new)


@settings(max_examples=300, deadline=None)
@given(lines_of, lines_of)
def test_chunks_cover_both_texts_in_order(old_lines: list[str], new_lines: list[str]) -> None:
    old, new = "".join(old_lines), "".join(new_lines)
    model = build_diff(old, new)
    old_split, new_split = split_lines(old), split_lines(new)
    old_pos = new_pos = row = 0
    for chunk in model.chunks:
        assert (chunk.old_start, chunk.new_start, chunk.row_start) == (old_pos, new_pos, row)
        if chunk.tag == "equal":
            assert (
                old_split[chunk.old_start : chunk.old_end]
                == (new_split[chunk.new_start : chunk.new_end])
            )
        old_pos, new_pos, row = chunk.old_end, chunk.new_end, row + chunk.rows
    assert (old_pos, new_pos, row) == (len(old_split), len(new_split), model.row_count)
    left, right = aligned_texts(model, old, new)
    assert left.count("\n") == right.count("\n") == max(model.row_count - 1, 0)


def test_a_cancelled_diff_stops_before_its_work() -> None:
    token = CancelToken()
    assert build_diff("a\n", "b\n", cancel=token).change_count == 1
    token.cancel()
    with pytest.raises(CancelledError):
        build_diff("a\n", "b\n", cancel=token)


def test_equal_texts_diff_as_the_matching_would_make_it() -> None:
    for text in ("", "a", "a\n", "a\nb", "a\r\n\nb\n", "\n\n"):
        keys = line_keys(text)
        matched = diff_from_blocks(matching_blocks(keys, keys), len(keys), len(keys))
        assert build_diff(text, text) == matched
