"""The merge as the editor shows it: merged text, marks on each change, conflicts in markers."""

from __future__ import annotations

from app.core.merge import Resolution, merge_texts
from app.core.merge_layout import MINE_MARKER, SPLIT_MARKER, THEIRS_MARKER, has_markers, lay_out

BASE = "# Rules\n\nBe brief.\n\nSign replies.\n\nNo jargon.\n"


def test_clean_changes_are_marked_by_side_and_the_text_is_the_merge() -> None:
    mine = BASE.replace("Be brief.", "Be very brief.")
    theirs = BASE.replace("No jargon.", "No jargon, ever.")
    result = merge_texts(BASE, theirs, mine)
    layout = lay_out(result)
    assert layout.text == result.text
    marked = {(m.kind, layout.text[m.start : m.end]) for m in layout.marks}
    assert marked == {("mine", "Be very brief.\n"), ("theirs", "No jargon, ever.\n")}


def test_a_conflict_sits_between_markers_with_mine_above_theirs() -> None:
    mine = BASE.replace("Sign replies.", "Sign replies with your name.")
    theirs = BASE.replace("Sign replies.", "Sign replies with the team.")
    layout = lay_out(merge_texts(BASE, theirs, mine))
    [(start, end)] = layout.conflict_spans()
    block = layout.text[start:end]
    assert block == (
        f"{MINE_MARKER}\nSign replies with your name.\n{SPLIT_MARKER}\n"
        f"Sign replies with the team.\n{THEIRS_MARKER}\n"
    )
    assert has_markers(block)
    parts = {m.kind: layout.text[m.start : m.end] for m in layout.marks if m.conflict == 0}
    assert parts["conflict_mine"] == "Sign replies with your name.\n"
    assert parts["conflict_theirs"] == "Sign replies with the team.\n"
    assert layout.text.replace(block, "Sign replies.\n") == BASE


def test_a_resolved_conflict_is_laid_out_as_its_text() -> None:
    mine = BASE.replace("Sign replies.", "Sign replies with your name.")
    theirs = BASE.replace("Sign replies.", "Sign replies with the team.")
    result = merge_texts(BASE, theirs, mine).take(0, Resolution.THEIRS)
    layout = lay_out(result)
    assert layout.text == theirs
    assert layout.conflict_spans() == ()
    assert [m.kind for m in layout.marks] == ["both"]


def test_a_setext_heading_underline_is_no_marker() -> None:
    assert not has_markers("Title\n=========\n")
    assert has_markers(f"a\n{SPLIT_MARKER}\nb\n")
