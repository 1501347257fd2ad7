"""A conflicting block of lines merged again word by word, kept only when that comes out clean."""

from __future__ import annotations

import re
from itertools import accumulate

from app.core.cancel import CancelToken
from app.core.diff3 import Block, Kind, diff3_regions, drop_chance_matches
from app.core.diff_model import matching_blocks

Piece = tuple[Kind, str, str, str]
"""(kind, base text, a text, b text) of one merged region."""

# Words, runs of spaces, each line break and each punctuation mark: the units two people
# editing one paragraph change independently. Joined, the tokens give the text back exactly.
_TOKENS = re.compile(r"\w+|[^\S\n]+|\n|[^\w\s]")
# What must stand between an edit of one side and an edit of the other: a word, or a line break.
_SEPARATOR = re.compile(r"[\w\n]")


def tokens(text: str) -> list[str]:
    """The text's tokens; every character belongs to exactly one."""
    return _TOKENS.findall(text)


class _Tokens:
    """One text's tokens, numbered alike across the three texts, and where each starts."""

    def __init__(self, text: str, numbers: dict[str, int]):
        self.items = tokens(text)
        self.ids = [numbers.setdefault(token, len(numbers)) for token in self.items]
        self.starts = [0, *accumulate(map(len, self.items))]

    def text(self, start: int, end: int) -> str:
        return "".join(self.items[start:end])


def _prose_blocks(old: _Tokens, new: _Tokens) -> list[Block]:
    """Words matched the way a reader would: the LCS without its chance matches."""
    found = matching_blocks(old.ids, new.ids, numbered=True)
    return drop_chance_matches(old.starts, new.starts, found)


def refine_to_words(base: str, a: str, b: str, cancel: CancelToken) -> list[Piece] | None:
    """The block as word-level pieces when both sides' edits merge cleanly, else None.

    Clean means no overlapping edits, and an unchanged word or line break between an edit of
    one side and an edit of the other: two edits touching across a space or a comma are one
    rewrite of a phrase, which the operator should decide.
    """
    if not base:
        return None  # both sides added text at one place: only the operator knows the order
    cancel.check()
    numbers: dict[str, int] = {}
    base_t, a_t, b_t = _Tokens(base, numbers), _Tokens(a, numbers), _Tokens(b, numbers)
    a_blocks = _prose_blocks(base_t, a_t)
    if not a_blocks:
        return None  # side a rewrote all of it: any edit of b's overlaps
    b_blocks = _prose_blocks(base_t, b_t)
    if not b_blocks:
        return None
    pieces: list[Piece] = []
    regions = diff3_regions(base_t.ids, a_t.ids, b_t.ids, cancel, blocks=(a_blocks, b_blocks))
    for kind, z0, z1, a0, a1, b0, b1 in regions:
        if kind == "conflict":
            return None
        pieces.append((kind, base_t.text(z0, z1), a_t.text(a0, a1), b_t.text(b0, b1)))
    return pieces if _edits_stand_apart(pieces) else None


def _edits_stand_apart(pieces: list[Piece]) -> bool:
    last_side: Kind | None = None
    gap = ""
    for kind, base, _a, _b in pieces:
        if kind == "unchanged":
            gap += base
            continue
        if {kind, last_side} == {"a", "b"} and not _SEPARATOR.search(gap):
            return False
        last_side, gap = kind, ""
    return True
