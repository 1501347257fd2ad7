"""Longest common subsequences of line (or word) sequences: the matching every diff starts from."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from collections.abc import Set as AbstractSet
from itertools import compress, count
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rapidfuzz.distance import Opcodes

Block = tuple[int, int, int]
"""(old index, new index, length) of a run of equal items."""

# Anchored matching (``_anchored_blocks``): windows of this many items are looked up as a
# whole; below ANCHORED_FROM items the plain LCS is cheap enough.
_WINDOW = 16
ANCHORED_FROM = 1024
_REACH = 512  # how far past its expected place a window is looked for
_TRIES = 8  # at most this many places holding its first item (blank lines are common)


def common_affixes(old: Sequence[Hashable], new: Sequence[Hashable]) -> tuple[int, int]:
    """The lengths of the common prefix and of the common suffix (not overlapping it)."""
    limit = min(len(old), len(new))
    prefix = 0
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    return prefix, suffix


def numbered_alike(*sequences: Sequence[Hashable]) -> list[list[int]]:
    """Each sequence as small ints, equal items getting equal numbers across all of them.

    dict.fromkeys and map run in C: a third of the time of a setdefault per item.
    """
    numbers: dict[Hashable, int] = {}
    # setdefault with a counter: one dict operation per item, in C; the numbers have gaps,
    # which nothing minds (they are only compared for equality).
    numbered = []
    offset = 0
    for sequence in sequences:
        numbered.append(list(map(numbers.setdefault, sequence, count(offset))))
        offset += len(sequence)
    return numbered


def lcs_opcodes(old: Sequence[Hashable], new: Sequence[Hashable]) -> Opcodes:
    """rapidfuzz's LCS edit operations. Imported by the first diff, not with the modules
    that name this one: none of it is on the way to the first Task (~15 ms)."""
    from rapidfuzz.distance import LCSseq

    return LCSseq.opcodes(old, new)


def _equal_runs(old: Sequence[Hashable], new: Sequence[Hashable]) -> list[Block]:
    return [
        (op.src_start, op.dest_start, op.src_end - op.src_start)
        for op in lcs_opcodes(old, new)
        if op.tag == "equal"
    ]


def _lcs_blocks(old: list[int], new: list[int]) -> list[Block]:
    """(old index, new index, length) of an LCS's equal runs, numbered items.

    Items found on one side only can't be in any common subsequence, so when most of them are
    (texts that share little) the LCS runs on the rest alone, its runs mapped back (Meld's
    matcher does the same): fully different 256 KB texts take a fiftieth of the time."""
    old_kinds, new_kinds = set(old), set(new)
    both = old_kinds & new_kinds
    if len(both) * 2 >= max(len(old_kinds), len(new_kinds)):
        return _equal_runs(old, new)
    return _sparse_blocks(old, new, both, numbered=True)


def _sparse_blocks(
    old: Sequence[Hashable],
    new: Sequence[Hashable],
    both: AbstractSet[Hashable],
    *,
    numbered: bool,
) -> list[Block]:
    """The equal runs of an LCS of two sequences found on the items of ``both`` (those the
    two have in common) alone, mapped back to where those items are; ``numbered``: the
    items are small ints already (else the shared ones are numbered here)."""
    old_at = list(compress(count(), map(both.__contains__, old)))
    new_at = list(compress(count(), map(both.__contains__, new)))
    old_ids: Sequence[Hashable] = [old[i] for i in old_at]
    new_ids: Sequence[Hashable] = [new[j] for j in new_at]
    if not numbered:
        old_ids, new_ids = numbered_alike(old_ids, new_ids)
    blocks: list[Block] = []
    at_old = at_new = -2  # the run being built, kept in locals: a tuple per item cost twice
    size = 0
    for i0, j0, n in _equal_runs(old_ids, new_ids):
        for i, j in zip(old_at[i0 : i0 + n], new_at[j0 : j0 + n], strict=True):
            if i == at_old + size and j == at_new + size:
                size += 1
                continue
            if size:
                blocks.append((at_old, at_new, size))
            at_old, at_new, size = i, j, 1
    if size:
        blocks.append((at_old, at_new, size))
    return blocks


def _anchored_blocks(old: Sequence[Hashable], new: Sequence[Hashable]) -> list[Block] | None:
    """An LCS of two mostly alike sequences, found piecewise, or None when this way can't.

    One LCS of 5,000 lines costs rapidfuzz ~3 ms (numbering them, then one hash lookup per
    line and 64 lines of the other side), nearly all of it spent on equal text when there
    are few changes. So windows of the old items are compared with the new ones where the
    last match puts them (a list comparison, in C), or looked for nearby, and each equal
    window is matched as a whole; only the gaps between them get an LCS of their own.
    Matching a window may be a worse choice than a full LCS would make, so the result is
    checked: rapidfuzz's LCS length with a cutoff one above ours needs only the diagonals
    within the changes, and finding no longer common subsequence proves ours one of the
    longest (it hashes the items: a collision can only make it find a longer one, which
    sends us to the full LCS, never past a worse one). Otherwise None, and the caller runs
    the full LCS, as it does when too few windows match for this to pay.
    """
    windows = _equal_windows(old, new)
    if len(windows) * _WINDOW * 2 < len(old):
        return None  # too little in common this way: the full LCS is cheaper than trying
    blocks: list[Block] = []
    old_pos = new_pos = 0
    for at_old, at_new in [*windows, (len(old), len(new))]:
        if at_old > old_pos and at_new > new_pos:
            gap = _gap_blocks(old[old_pos:at_old], new[new_pos:at_new])
            blocks.extend((old_pos + i, new_pos + j, n) for i, j, n in gap)
        if at_old < len(old):
            blocks.append((at_old, at_new, _WINDOW))
        old_pos, new_pos = at_old + _WINDOW, at_new + _WINDOW
    length = sum(size for _, _, size in blocks)
    from rapidfuzz.distance import LCSseq

    if LCSseq.similarity(old, new, score_cutoff=length + 1):
        return None  # a longer common subsequence exists: ours is not an LCS
    return _joined(blocks)


class _Fence:
    """An item equal to nothing but itself."""


def _gap_blocks(old: Sequence[Hashable], new: Sequence[Hashable]) -> list[Block]:
    """The equal runs of an LCS of one gap between matched windows, chosen among equally long
    ones as the LCS of the whole texts chooses: rapidfuzz trims a common prefix and suffix
    and breaks ties walking back from the end, so the gap is given an unequal item at each
    end, as the whole texts have there, not the matched windows' edges it would trim."""
    fenced_old = [_Fence(), *old, _Fence()]
    fenced_new = [_Fence(), *new, _Fence()]
    old_ids, new_ids = numbered_alike(fenced_old, fenced_new)
    return [(i - 1, j - 1, n) for i, j, n in _equal_runs(old_ids, new_ids)]


def _equal_windows(old: Sequence[Hashable], new: Sequence[Hashable]) -> list[tuple[int, int]]:
    """(old index, new index) of equal windows of ``_WINDOW`` items, in order on both sides:
    each old window where the last one's match puts it, else within ``_REACH`` items after
    that place (found by its first item, ``list.index`` in C). Given up (empty) as soon as
    more windows missed than matched: fully different texts must not pay for the search."""
    found: list[tuple[int, int]] = []
    missed = 0
    shift = floor = 0  # new index - old index of the last match; where the next may start
    for at_old in range(0, len(old) - _WINDOW + 1, _WINDOW):
        window = old[at_old : at_old + _WINDOW]
        at_new = at_old + shift
        if at_new >= floor and new[at_new : at_new + _WINDOW] == window:
            found.append((at_old, at_new))
            floor = at_new + _WINDOW
            continue
        after = at_old + _WINDOW
        if (
            at_new >= floor
            and new[at_new + _WINDOW : at_new + 2 * _WINDOW] == old[after : after + _WINDOW]
        ):
            hit = -1  # the next window is in place: this one was edited there, not moved
        else:
            hit = _nearby(window, new, floor, min(len(new), max(floor, at_old + shift) + _REACH))
        if hit >= 0:
            found.append((at_old, hit))
            shift, floor = hit - at_old, hit + _WINDOW
            continue
        missed += 1
        if missed > _TRIES and missed > len(found):
            return []
    return found


def _nearby(window: Sequence[Hashable], new: Sequence[Hashable], start: int, end: int) -> int:
    """Where ``window`` starts in ``new[start:end]``, looking at ``_TRIES`` places at most."""
    at = start - 1
    for _ in range(_TRIES):
        try:
            at = new.index(window[0], at + 1, end)
        except ValueError:
            return -1
        if new[at : at + _WINDOW] == window:
            return at
    return -1


def _joined(blocks: list[Block]) -> list[Block]:
    """Adjacent runs as one, as a single LCS gives them."""
    joined: list[Block] = []
    for block in blocks:
        if (
            joined
            and joined[-1][0] + joined[-1][2] == block[0]
            and (joined[-1][1] + joined[-1][2] == block[1])
        ):
            joined[-1] = (joined[-1][0], joined[-1][1], joined[-1][2] + block[2])
        else:
            joined.append(block)
    return joined


def matching_blocks(
    old: Sequence[Hashable], new: Sequence[Hashable], *, numbered: bool = False
) -> list[Block]:
    """(old index, new index, length) of equal runs, from a longest common subsequence.

    An LCS is the smallest diff there is, so it never has more changed lines than
    difflib's greedy matcher; rapidfuzz computes it bit-parallel in C++, where
    SequenceMatcher(autojunk=False) turns quadratic on the blank lines Markdown is full of.
    The common prefix and suffix are always part of some LCS, so trimming them is safe.
    Items (lines, or words) are numbered first so rapidfuzz compares small ints;
    ``numbered=True`` says they already are.
    """
    prefix, suffix = common_affixes(old, new)
    blocks: list[Block] = []
    if prefix:
        blocks.append((0, 0, prefix))
    old_mid = old[prefix : len(old) - suffix]
    new_mid = new[prefix : len(new) - suffix]
    if old_mid and new_mid:
        found = None
        if min(len(old_mid), len(new_mid)) >= ANCHORED_FROM:
            found = _anchored_blocks(old_mid, new_mid)
        if found is None:
            found = _plain_blocks(old_mid, new_mid, numbered=numbered)
        blocks += [(prefix + i, prefix + j, size) for i, j, size in found]
    if suffix:
        blocks.append((len(old) - suffix, len(new) - suffix, suffix))
    return blocks


def _plain_blocks(
    old: Sequence[Hashable], new: Sequence[Hashable], *, numbered: bool
) -> list[Block]:
    """The equal runs of one LCS over the whole of both (no common prefix or suffix)."""
    if numbered:
        return _lcs_blocks(list(old), list(new))  # type: ignore[arg-type]
    # The lines both texts have, from the lines themselves (a str keeps its hash): when
    # they are few, only they are numbered and matched, not every line of both texts.
    both = set(old).intersection(new)
    if sum(map(both.__contains__, new)) * 2 < len(new):
        return _sparse_blocks(old, new, both, numbered=False)
    old_ids, new_ids = numbered_alike(old, new)
    return _equal_runs(old_ids, new_ids)
