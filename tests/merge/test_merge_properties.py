"""Properties of the three-way merge on random texts: what it keeps, and that it is exact.

Mine and theirs write new characters from alphabets of their own, which base never uses:
whatever of those reaches the result can only have come from that side, so "every change of
mine is in the result" is checked without trusting the merge's own account of the changes.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.merge import MergeResult, RegionKind, Resolution, merge_texts

# No deadline or too-slow check: a busy machine would make them fail for nothing.
MERGE = settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])

BASE_ALPHABET = "ab .,\t\r\n\x00🙂é"
MINE_ONLY = "xyz💡"
THEIRS_ONLY = "pqrß"

base_texts = st.text(alphabet=BASE_ALPHABET, max_size=60)


@st.composite
def edited(draw: st.DrawFn, text: str, own_letters: str) -> str:
    """``text`` with a few insertions, deletions and replacements, new text drawn from the
    base alphabet and the editor's own letters."""
    alphabet = BASE_ALPHABET + own_letters
    edits = draw(
        st.lists(
            st.tuples(st.integers(0, len(text)), st.integers(0, 8), st.text(alphabet, max_size=10)),
            max_size=4,
        )
    )
    for at, cut, insert in sorted(edits, reverse=True):
        text = text[:at] + insert + text[at + cut :]
    return text


@st.composite
def three_versions(draw: st.DrawFn) -> tuple[str, str, str]:
    base = draw(base_texts)
    return base, draw(edited(base, THEIRS_ONLY)), draw(edited(base, MINE_ONLY))


def only(letters: str, text: str) -> str:
    return "".join(ch for ch in text if ch in letters)


def check_regions_add_up(result: MergeResult, base: str, theirs: str, mine: str) -> None:
    """The regions cover all three texts in order, at the offsets they claim."""
    assert result.base_text == base
    assert result.mine_text == mine
    assert result.theirs_text == theirs
    for region in result.regions:
        assert base[region.base_start : region.base_end] == region.base
        assert mine[region.mine_start : region.mine_end] == region.mine
        assert theirs[region.theirs_start : region.theirs_end] == region.theirs


@MERGE
@given(base_texts, st.data())
def test_only_mine_changed_gives_mine(base: str, data: st.DataObject) -> None:
    mine = data.draw(edited(base, MINE_ONLY))
    result = merge_texts(base, base, mine)
    assert result.is_clean
    assert result.text == mine


@MERGE
@given(base_texts, st.data())
def test_only_theirs_changed_gives_theirs(base: str, data: st.DataObject) -> None:
    theirs = data.draw(edited(base, THEIRS_ONLY))
    result = merge_texts(base, theirs, base)
    assert result.is_clean
    assert result.text == theirs


@MERGE
@given(base_texts, st.data())
def test_the_same_edit_on_both_sides_gives_it(base: str, data: st.DataObject) -> None:
    both = data.draw(edited(base, MINE_ONLY))
    result = merge_texts(base, both, both)
    assert result.is_clean
    assert result.text == both


@MERGE
@given(three_versions())
def test_a_clean_merge_holds_every_change_of_both_sides(texts: tuple[str, str, str]) -> None:
    base, theirs, mine = texts
    result = merge_texts(base, theirs, mine)
    check_regions_add_up(result, base, theirs, mine)
    if not result.is_clean:
        return
    merged = result.text
    assert merged is not None
    # Every letter only mine writes is there, in mine's order; the same for theirs.
    assert only(MINE_ONLY, merged) == only(MINE_ONLY, mine)
    assert only(THEIRS_ONLY, merged) == only(THEIRS_ONLY, theirs)
    # And each region is honest: one side changed it, or both alike, or neither.
    for region in result.regions:
        if region.kind is RegionKind.UNCHANGED:
            assert region.base == region.mine == region.theirs
        elif region.kind is RegionKind.MINE:
            assert region.theirs == region.base != region.mine
        elif region.kind is RegionKind.THEIRS:
            assert region.mine == region.base != region.theirs
        else:
            assert region.kind is RegionKind.BOTH and region.mine == region.theirs
    assert merged == "".join(r.text or "" for r in result.regions)


@MERGE
@given(three_versions())
def test_taking_mine_everywhere_loses_nothing_mine_added(texts: tuple[str, str, str]) -> None:
    base, theirs, mine = texts
    merged = merge_texts(base, theirs, mine).take_all(Resolution.MINE).text
    assert merged is not None
    assert only(MINE_ONLY, merged) == only(MINE_ONLY, mine)


@MERGE
@given(three_versions())
def test_taking_theirs_everywhere_loses_nothing_theirs_added(
    texts: tuple[str, str, str],
) -> None:
    base, theirs, mine = texts
    merged = merge_texts(base, theirs, mine).take_all(Resolution.THEIRS).text
    assert merged is not None
    assert only(THEIRS_ONLY, merged) == only(THEIRS_ONLY, theirs)


@MERGE
@given(
    three_versions(), st.sampled_from([Resolution.MINE_THEN_THEIRS, Resolution.THEIRS_THEN_MINE])
)
def test_taking_both_keeps_what_each_side_added(
    texts: tuple[str, str, str], both: Resolution
) -> None:
    base, theirs, mine = texts
    merged = merge_texts(base, theirs, mine).take_all(both).text
    assert merged is not None
    assert only(MINE_ONLY, merged) == only(MINE_ONLY, mine)
    assert only(THEIRS_ONLY, merged) == only(THEIRS_ONLY, theirs)


@MERGE
@given(three_versions())
def test_text_goes_in_and_comes_out_byte_for_byte(texts: tuple[str, str, str]) -> None:
    base, theirs, mine = texts
    result = merge_texts(base, theirs, mine)
    assert result.base_text.encode() == base.encode()
    assert result.mine_text.encode() == mine.encode()
    assert result.theirs_text.encode() == theirs.encode()
    mine_everywhere = result.take_all(Resolution.MINE)
    if result.is_clean:
        assert result.marked().text == result.text
    else:
        # Each conflict resolved to its own text gives back exactly the chosen pieces.
        for index, conflict in enumerate(result.conflicts):
            assert mine_everywhere.conflicts[index].resolved == conflict.mine


@MERGE
@given(three_versions())
def test_marked_spans_point_at_each_region(texts: tuple[str, str, str]) -> None:
    base, theirs, mine = texts
    result = merge_texts(base, theirs, mine)
    marked = result.marked()
    assert len(marked.spans) == len(result.regions)
    ends = [0, *(end for _start, end in marked.spans)]
    assert [start for start, _end in marked.spans] == ends[:-1]  # one after another
    assert ends[-1] == len(marked.text)
    for (start, end), region in zip(marked.spans, result.regions, strict=True):
        shown = marked.text[start:end]
        if region.text is not None:
            assert shown == region.text
        else:
            assert shown.startswith("<<<<<<< mine") and shown.rstrip("\r\n").endswith(
                ">>>>>>> theirs"
            )


@MERGE
@given(
    st.lists(st.text(alphabet="abc ", min_size=1, max_size=10), min_size=4, max_size=30),
    st.data(),
)
def test_edits_to_lines_apart_merge_to_both_edits(lines: list[str], data: st.DataObject) -> None:
    """An oracle that doesn't ask the merge: edit lines at least one line apart, by
    construction, and the result is base with both sets of edits applied."""
    base_lines = [f"{n}: {text}\n" for n, text in enumerate(lines)]  # every line unique
    picked = data.draw(st.lists(st.integers(0, len(lines) - 1), unique=True, max_size=6))
    spaced = [n for n in sorted(picked) if all(abs(n - m) >= 2 for m in picked if m != n)]
    mine_lines, theirs_lines, expected = list(base_lines), list(base_lines), list(base_lines)
    for turn, n in enumerate(spaced):
        new = f"{n}: {'xyz' if turn % 2 else 'pqr'} {lines[n]}\n"
        (mine_lines if turn % 2 else theirs_lines)[n] = new
        expected[n] = new
    result = merge_texts("".join(base_lines), "".join(theirs_lines), "".join(mine_lines))
    assert result.is_clean
    assert result.text == "".join(expected)
