"""The piecewise LCS of long, mostly alike texts: always a longest common subsequence."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import LCSseq

from app.core.line_lcs import (
    ANCHORED_FROM,
    _anchored_blocks,
    _joined,
    _plain_blocks,
    matching_blocks,
)


def _checked_length(old: list[int], new: list[int], blocks: list[tuple[int, int, int]]) -> int:
    """The blocks' length, after checking they are equal runs, in order on both sides."""
    old_end = new_end = 0
    for i, j, size in blocks:
        assert i >= old_end and j >= new_end and size > 0
        assert old[i : i + size] == new[j : j + size]
        old_end, new_end = i + size, j + size
    return sum(size for _, _, size in blocks)


def _edited(rng: random.Random, items: list[int], edits: int, moves: int) -> list[int]:
    copy = list(items)
    for _ in range(edits):
        at = rng.randrange(len(copy))
        roll = rng.random()
        if roll < 0.4:
            copy[at] = rng.randrange(40)  # a few kinds, as blank lines and bullets repeat
        elif roll < 0.7:
            del copy[at : at + rng.randint(1, 40)]
        else:
            copy[at:at] = [rng.randrange(40) for _ in range(rng.randint(1, 40))]
    for _ in range(moves):  # a block moved: a window matched where it went misleads
        at, size = rng.randrange(len(copy)), rng.randint(16, 200)
        block = copy[at : at + size]
        del copy[at : at + size]
        to = rng.randrange(len(copy) + 1)
        copy[to:to] = block
    return copy


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    edits=st.integers(1, 30),
    moves=st.integers(0, 3),
    kinds=st.sampled_from([3, 50, 5000]),
)
def test_matching_is_a_longest_common_subsequence(
    seed: int, edits: int, moves: int, kinds: int
) -> None:
    rng = random.Random(seed)
    old = [rng.randrange(kinds) for _ in range(rng.randint(ANCHORED_FROM, 3 * ANCHORED_FROM))]
    new = _edited(rng, old, edits, moves)
    blocks = matching_blocks(old, new, numbered=True)
    assert _checked_length(old, new, blocks) == LCSseq.similarity(old, new)


def test_a_few_changes_take_the_piecewise_way() -> None:
    rng = random.Random(7)
    old = [rng.randrange(5000) for _ in range(4000)]
    new = _edited(rng, old, 20, 0)
    blocks = _anchored_blocks(old, new)
    assert blocks is not None
    assert _checked_length(old, new, blocks) == LCSseq.similarity(old, new)


def test_fully_different_texts_go_the_whole_way() -> None:
    rng = random.Random(8)
    old = [rng.randrange(5000) for _ in range(4000)]
    new = [rng.randrange(5000, 10000) for _ in range(4000)]
    assert _anchored_blocks(old, new) is None


def test_a_gap_ties_as_the_whole_texts_tie() -> None:
    """A line made blank before a blank line: one LCS matches the old blank to the first
    new one, another to the second. The piecewise way picks what the whole-text LCS picks
    (the compare view and a review show the hunks they showed before it)."""
    rng = random.Random(9)
    old = [rng.randrange(1, 5000) for _ in range(3000)]
    old[1500:1502] = [7777, 0]
    new = list(old)
    new[1500:1502] = [0, 0]
    new[2400] = 8888
    blocks = _anchored_blocks(old, new)
    assert blocks is not None
    assert blocks == _joined(_plain_blocks(old, new, numbered=True))
