"""diff3 regions of three sequences, by merge3's algorithm over our rapidfuzz LCS matchers."""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Any, Literal, cast

from merge3 import Merge3

from app.core.cancel import CancelToken
from app.core.diff_model import matching_blocks

Kind = Literal["unchanged", "a", "b", "same", "conflict"]
"""merge3's names: ``a`` changed on side a only, ``b`` on side b only, ``same`` alike on both."""
Block = tuple[int, int, int]
Region = tuple[Kind, int, int, int, int, int, int]
"""(kind, base start, base end, a start, a end, b start, b end): half-open item ranges."""


class _Matcher:
    """The one part of difflib's SequenceMatcher that merge3 calls, answered from blocks
    found beforehand (merge3's default, difflib, turns quadratic on Markdown's blank lines)."""

    def __init__(self, blocks: list[Block], a: Sequence[Hashable], b: Sequence[Hashable]):
        self._blocks = [*blocks, (len(a), len(b), 0)]  # difflib's closing sentinel

    def get_matching_blocks(self) -> list[Block]:
        return self._blocks


def diff3_regions(
    base: Sequence[Hashable],
    a: Sequence[Hashable],
    b: Sequence[Hashable],
    cancel: CancelToken,
    *,
    blocks: tuple[list[Block], list[Block]] | None = None,
) -> Iterator[Region]:
    """Every region of the three sequences in order, covering each of them end to end.

    merge3 compares the items for equality only: lines, or their ``numbered_alike`` ids.
    ``blocks``: the matching blocks of base→a and base→b when the caller has them; by
    default they are the LCS (``matching_blocks``), one diff each, with a cancel check
    between. merge3 decides each region's kind; its own regions omit ranges we need (a
    ``same`` region has no base range), so the ranges come from walking its sync regions.
    """
    if blocks is None:
        cancel.check()
        a_blocks = matching_blocks(base, a, numbered=True)
        cancel.check()
        b_blocks = matching_blocks(base, b, numbered=True)
        cancel.check()
    else:
        a_blocks, b_blocks = blocks

    def matcher(_junk: object, x: Sequence[Hashable], y: Sequence[Hashable]) -> _Matcher:
        return _Matcher(a_blocks if y is a else b_blocks, x, y)

    merge = Merge3(cast(Any, base), cast(Any, a), cast(Any, b), sequence_matcher=cast(Any, matcher))
    syncs = merge.find_sync_regions()
    merge.find_sync_regions = lambda: syncs  # type: ignore[method-assign]  # merge_regions asks again
    kinds = merge.merge_regions()
    z = i = j = 0
    for z_at, z_end, a_at, a_end, b_at, b_end in syncs:
        if a_at > i or b_at > j:  # merge3 yields a region for this gap
            yield (cast(Kind, next(kinds)[0]), z, z_at, i, a_at, j, b_at)
        elif z_at > z:  # both sides deleted the same base items: merge3 skips it silently
            yield ("same", z, z_at, i, i, j, j)
        if z_end > z_at:
            assert next(kinds)[0] == "unchanged"
            yield ("unchanged", z_at, z_end, a_at, a_end, b_at, b_end)
        z, i, j = z_end, a_end, b_end


def drop_chance_matches(old_at: list[int], new_at: list[int], blocks: list[Block]) -> list[Block]:
    """Drop equal runs no longer than the edits on both sides of them.

    ``old_at``/``new_at``: where each item starts in its text, plus the text's end, so runs
    are weighed in characters. Between two rewritten sentences an LCS of words still matches
    "the", a comma or a space; kept, such chance matches split one rewrite into small edits
    that interleave with the other side's. This is diff-match-patch's semantic clean-up.
    """
    old_len, new_len = len(old_at) - 1, len(new_at) - 1
    dropped = True
    while dropped:
        dropped = False
        kept: list[Block] = []
        for index, (i, j, size) in enumerate(blocks):
            pi, pj = (kept[-1][0] + kept[-1][2], kept[-1][1] + kept[-1][2]) if kept else (0, 0)
            ni, nj = blocks[index + 1][:2] if index + 1 < len(blocks) else (old_len, new_len)
            equal = old_at[i + size] - old_at[i]
            if equal <= max(old_at[i] - old_at[pi], new_at[j] - new_at[pj]) and equal <= max(
                old_at[ni] - old_at[i + size], new_at[nj] - new_at[j + size]
            ):
                dropped = True
            else:
                kept.append((i, j, size))
        blocks = kept
    return blocks
