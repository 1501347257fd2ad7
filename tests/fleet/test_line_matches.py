"""The search's lines: one hit per line, its first column, lines counted as `\\n` ends them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.fleet_rows import BadPatternError, line_matches, search_pattern


def test_one_hit_per_line_at_its_first_match() -> None:
    text = "csv and CSV\r\nnone here\nlast csv"
    assert line_matches(search_pattern("csv", regex=False), text) == [
        {"line": 1, "column": 1, "text": "csv and CSV"},
        {"line": 3, "column": 6, "text": "last csv"},
    ]


def test_line_anchors_and_empty_lines() -> None:
    pattern = search_pattern(r"^$", regex=True)
    assert [m["line"] for m in line_matches(pattern, "a\n\nb\n")] == [2, 4]
    assert line_matches(search_pattern("x", regex=False), "") == []


def test_plain_text_is_not_a_pattern_and_a_bad_pattern_is_refused() -> None:
    assert line_matches(search_pattern("a.c", regex=False), "abc\na.c") == [
        {"line": 2, "column": 1, "text": "a.c"}
    ]
    with pytest.raises(BadPatternError):
        search_pattern("[", regex=True)


def test_plain_search_finds_any_case_even_where_lower_casing_changes_lengths() -> None:
    from app.core.fleet_rows import LineSearch

    search = LineSearch("csv", regex=False)
    assert search.lines("a\nExport CSV now") == [{"line": 2, "column": 8, "text": "Export CSV now"}]
    # "İ" lower-cases to two characters: the offsets of the lower-cased text would be off.
    assert search.lines("İİ CSV") == [{"line": 1, "column": 4, "text": "İİ CSV"}]
    assert search.lines("no match") == []


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="ab\n\r C", max_size=60),
    st.text(alphabet="ab C", min_size=1, max_size=3),
)
def test_the_plain_search_finds_the_lines_the_pattern_finds(text: str, query: str) -> None:
    from app.core.fleet_rows import line_starts, plain_line_matches

    pattern = search_pattern(query, regex=False)
    expected = line_matches(pattern, text)
    assert plain_line_matches(text, text.lower(), query.lower()) == expected
    assert plain_line_matches(text, text.lower(), query.lower(), line_starts(text)) == expected
