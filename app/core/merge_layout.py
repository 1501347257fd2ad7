"""A merge laid out for the editor: the merged text, and where each change and conflict sits.

A conflict is written the way git writes one without its base (VS Code shows the same):
``<<<<<<< mine`` / my text / ``=======`` / their text / ``>>>>>>> theirs``, so a reader
sees both sides in place and can resolve it by hand by deleting the marker lines. Offsets
are Python string indices into ``text``; the editor converts them to its own positions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.core.merge import MergeResult, RegionKind

MarkKind = Literal["mine", "theirs", "both", "conflict", "conflict_mine", "conflict_theirs"]

MINE_MARKER = "<<<<<<< mine"
SPLIT_MARKER = "======="
THEIRS_MARKER = ">>>>>>> theirs"


@dataclass(frozen=True, slots=True)
class Mark:
    """A stretch of the laid-out text: a change of one side, or a conflict and its parts."""

    kind: MarkKind
    start: int
    end: int
    conflict: int = -1  # the conflict's number (0-based, in text order) for conflict marks


@dataclass(frozen=True, slots=True)
class MergeLayout:
    """The text the editor shows and its marks, in text order."""

    text: str
    marks: tuple[Mark, ...]

    def conflict_spans(self) -> tuple[tuple[int, int], ...]:
        return tuple((m.start, m.end) for m in self.marks if m.kind == "conflict")


def conflict_block(mine: str, theirs: str, newline: str) -> tuple[str, int, int, int, int]:
    """A conflict as marked text, and where its mine part and its theirs part sit in it."""

    def side(text: str) -> str:
        return text if not text or text.endswith("\n") else text + newline

    head = MINE_MARKER + newline
    mine_part, theirs_part = side(mine), side(theirs)
    split = SPLIT_MARKER + newline
    mine_at = len(head)
    theirs_at = mine_at + len(mine_part) + len(split)
    block = head + mine_part + split + theirs_part + THEIRS_MARKER + newline
    return block, mine_at, mine_at + len(mine_part), theirs_at, theirs_at + len(theirs_part)


def lay_out(result: MergeResult) -> MergeLayout:
    """The merged text with each change marked and each open conflict between markers."""
    parts: list[str] = []
    marks: list[Mark] = []
    at = 0
    conflict = 0
    for region in result.regions:
        text = region.text
        if region.kind is RegionKind.CONFLICT and text is None:
            text, m0, m1, t0, t1 = conflict_block(region.mine, region.theirs, result.newline)
            # A conflict's text starts at a line's start only when the line above ends; a
            # word-level conflict never reaches here (word refinement keeps only clean ones).
            marks.append(Mark("conflict", at, at + len(text), conflict))
            if m1 > m0:
                marks.append(Mark("conflict_mine", at + m0, at + m1, conflict))
            if t1 > t0:
                marks.append(Mark("conflict_theirs", at + t0, at + t1, conflict))
        elif region.kind is RegionKind.CONFLICT:
            marks.append(Mark("both", at, at + len(text or ""), conflict))
        elif region.kind is not RegionKind.UNCHANGED and text:
            marks.append(Mark(_KIND[region.kind], at, at + len(text)))
        if region.kind is RegionKind.CONFLICT:
            conflict += 1
        parts.append(text or "")
        at += len(text or "")
    return MergeLayout("".join(parts), tuple(marks))


def has_markers(block: str) -> bool:
    """True while a conflict's text still holds a marker line: not yet resolved by hand."""
    lines = block.splitlines()
    return any(
        line.startswith((MINE_MARKER, THEIRS_MARKER)) or line == SPLIT_MARKER for line in lines
    )


_KIND: dict[RegionKind, MarkKind] = {
    RegionKind.MINE: "mine",
    RegionKind.THEIRS: "theirs",
    RegionKind.BOTH: "both",
}
