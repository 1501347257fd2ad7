"""Three-way merge of Task texts (base, theirs, mine): combined changes, marked conflicts.

Lines are merged with diff3 semantics (merge3); a conflicting block of lines is merged again
word by word, which turns two people editing different sentences of one paragraph into two
clean changes. Text goes in and comes out exactly: CRLF, a missing final newline, NUL and
emoji survive byte for byte. Pure and Qt-free; ``cancel`` stops it between steps.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from app.core.cancel import NEVER, CancelToken
from app.core.diff3 import Block, Kind, diff3_regions
from app.core.diff_model import numbered_alike, split_lines
from app.core.merge_resolution import Resolution
from app.core.merge_words import Piece, refine_to_words


class RegionKind(enum.Enum):
    UNCHANGED = "unchanged"
    MINE = "mine"  # changed by me only: my text is in the result
    THEIRS = "theirs"  # changed by them only: their text is in the result
    BOTH = "both"  # the same change on both sides
    CONFLICT = "conflict"  # different changes to the same text: the operator decides


_KINDS: dict[Kind, RegionKind] = {
    "unchanged": RegionKind.UNCHANGED,
    "a": RegionKind.MINE,
    "b": RegionKind.THEIRS,
    "same": RegionKind.BOTH,
    "conflict": RegionKind.CONFLICT,
}


@dataclass(frozen=True, slots=True)
class MergeRegion:
    """One stretch of the merge: its text in base, mine and theirs, and where each starts.

    Offsets count characters (Python string indices) in the whole base, mine and theirs
    texts; the regions of a result cover all three texts end to end, in order.
    """

    kind: RegionKind
    base: str
    mine: str
    theirs: str
    base_start: int
    mine_start: int
    theirs_start: int
    resolved: str | None = None  # a conflict's text once the operator has chosen
    resolution: Resolution | None = None  # how; None with ``resolved`` set: edited by hand

    @property
    def base_end(self) -> int:
        return self.base_start + len(self.base)

    @property
    def mine_end(self) -> int:
        return self.mine_start + len(self.mine)

    @property
    def theirs_end(self) -> int:
        return self.theirs_start + len(self.theirs)

    @property
    def text(self) -> str | None:
        """What this region puts in the result; None for a conflict not yet resolved."""
        if self.kind is RegionKind.UNCHANGED:
            return self.base
        if self.kind in (RegionKind.MINE, RegionKind.BOTH):
            return self.mine
        if self.kind is RegionKind.THEIRS:
            return self.theirs
        return self.resolved


@dataclass(frozen=True, slots=True)
class MarkerLabels:
    """The names after git's conflict markers (``<<<<<<< mine``) and the markers' length."""

    mine: str = "mine"
    base: str = "base"
    theirs: str = "theirs"
    size: int = 7


@dataclass(frozen=True, slots=True)
class MarkedText:
    """The merged text with unresolved conflicts written out between markers."""

    text: str
    spans: tuple[tuple[int, int], ...]  # where each region of the result sits in ``text``


@dataclass(frozen=True, slots=True)
class MergeResult:
    """The merge as regions; resolving a conflict returns a new result."""

    regions: tuple[MergeRegion, ...]
    newline: str = "\n"  # the texts' own line ending, for markers and "take both"

    @property
    def conflicts(self) -> tuple[MergeRegion, ...]:
        return tuple(r for r in self.regions if r.kind is RegionKind.CONFLICT)

    @property
    def mine_changes(self) -> tuple[MergeRegion, ...]:
        return tuple(r for r in self.regions if r.kind is RegionKind.MINE)

    @property
    def theirs_changes(self) -> tuple[MergeRegion, ...]:
        """Their changes merged in without a question: what keeping mine would throw away,
        besides the conflicts."""
        return tuple(r for r in self.regions if r.kind is RegionKind.THEIRS)

    @property
    def is_clean(self) -> bool:
        """True when both sides' changes combined without a single conflict."""
        return not self.conflicts

    @property
    def unresolved(self) -> int:
        return sum(1 for r in self.conflicts if r.resolved is None)

    @property
    def text(self) -> str | None:
        """The merged text once no conflict is left unresolved; None before."""
        parts = [r.text for r in self.regions]
        if any(part is None for part in parts):
            return None
        return "".join(part for part in parts if part is not None)

    @property
    def base_text(self) -> str:
        return "".join(r.base for r in self.regions)

    @property
    def mine_text(self) -> str:
        return "".join(r.mine for r in self.regions)

    @property
    def theirs_text(self) -> str:
        return "".join(r.theirs for r in self.regions)

    def take(self, conflict: int, resolution: Resolution) -> MergeResult:
        """Resolve conflict number ``conflict`` (0-based, in text order) one of the set ways."""
        region = self.conflicts[conflict]
        chosen = {
            Resolution.MINE: region.mine,
            Resolution.THEIRS: region.theirs,
            Resolution.MINE_THEN_THEIRS: _one_after_other(region.mine, region.theirs, self),
            Resolution.THEIRS_THEN_MINE: _one_after_other(region.theirs, region.mine, self),
        }[resolution]
        return self._with(region, replace(region, resolved=chosen, resolution=resolution))

    def edit(self, conflict: int, text: str) -> MergeResult:
        """Resolve conflict number ``conflict`` with text the operator wrote."""
        region = self.conflicts[conflict]
        return self._with(region, replace(region, resolved=text, resolution=None))

    def take_all(self, resolution: Resolution) -> MergeResult:
        result = self
        for index in range(len(self.conflicts)):
            result = result.take(index, resolution)
        return result

    def _with(self, old: MergeRegion, new: MergeRegion) -> MergeResult:
        regions = tuple(new if r is old else r for r in self.regions)
        return replace(self, regions=regions)

    def marked(self, labels: MarkerLabels = MarkerLabels()) -> MarkedText:
        """git's diff3 style: each unresolved conflict as mine, base and theirs in markers."""
        parts: list[str] = []
        spans: list[tuple[int, int]] = []
        at = 0
        for region in self.regions:
            text = region.text
            if text is None:
                text = _conflict_block(region, labels, self.newline)
            parts.append(text)
            spans.append((at, at + len(text)))
            at += len(text)
        return MarkedText("".join(parts), tuple(spans))


class Prepared(NamedTuple):
    """Three texts split into lines (``split_lines``), and what their lines are compared as:
    the lines numbered alike (``numbered_alike``), or the lines themselves: base, mine, theirs."""

    base: list[str]
    mine: list[str]
    theirs: list[str]
    base_ids: Sequence[Hashable]
    mine_ids: Sequence[Hashable]
    theirs_ids: Sequence[Hashable]


def merge_texts(
    base: str,
    theirs: str,
    mine: str,
    *,
    cancel: CancelToken = NEVER,
    blocks: tuple[list[Block], list[Block]] | None = None,
    prepared: Prepared | None = None,
) -> MergeResult:
    """Merge ``theirs`` and ``mine``, both edited from ``base``. Raises ``CancelledError`` when
    ``cancel`` is cancelled before it is done. ``blocks``: the line matching blocks of
    base → mine and base → theirs when the caller has them (``matching_blocks``);
    ``prepared``: the three texts' lines and their ``numbered_alike`` ids those blocks were
    made from, so a caller that split and numbered them already does not pay for it twice."""
    if prepared is None:
        lines = split_lines(base), split_lines(mine), split_lines(theirs)
        prepared = Prepared(*lines, *numbered_alike(*lines))
    base_lines, mine_lines, theirs_lines = prepared.base, prepared.mine, prepared.theirs
    base_ids, mine_ids, theirs_ids = prepared.base_ids, prepared.mine_ids, prepared.theirs_ids
    pieces: list[Piece] = []
    regions = diff3_regions(base_ids, mine_ids, theirs_ids, cancel, blocks=blocks)
    for count, (kind, z0, z1, a0, a1, b0, b1) in enumerate(regions):
        base_text = "".join(base_lines[z0:z1])
        if kind == "unchanged":  # equal lines on all three sides: the long runs, joined once
            piece: Piece = (kind, base_text, base_text, base_text)
        else:
            mine_text = "".join(mine_lines[a0:a1])
            theirs_text = mine_text if kind == "same" else "".join(theirs_lines[b0:b1])
            piece = (kind, base_text, mine_text, theirs_text)
        if kind == "conflict":
            words = refine_to_words(piece[1], piece[2], piece[3], cancel)
            if words is not None:
                pieces.extend(words)
                continue
        elif count % 256 == 255:
            cancel.check()
        pieces.append(piece)
    placed = _placed(_conflicts_joined(_coalesced(pieces)))
    return MergeResult(placed, newline=_newline_of(mine or theirs or base))


def _coalesced(pieces: Iterable[Piece]) -> list[Piece]:
    """Neighbours of one kind read as one change (word pieces beside line pieces)."""
    # Each run's texts are gathered in lists and joined once: adding strings piece by piece
    # copied a long unchanged run again for every piece joined to it.
    runs: list[tuple[Kind, list[str], list[str], list[str]]] = []
    for kind, base, mine, theirs in pieces:
        if not (base or mine or theirs):
            continue
        if runs and runs[-1][0] == kind and kind != "conflict":
            last = runs[-1]
            last[1].append(base)
            last[2].append(mine)
            last[3].append(theirs)
        else:
            runs.append((kind, [base], [mine], [theirs]))
    return [(kind, "".join(b), "".join(m), "".join(t)) for kind, b, m, t in runs]


def _conflicts_joined(pieces: list[Piece]) -> list[Piece]:
    """Two conflicts with only blank lines between them read as one.

    Between two rewrites of the same passage, diff3 still matches the blank lines that
    separate paragraphs, which cuts one question into many (two fully different 256 KB
    versions: over a thousand conflicts, nearly all split by a lone blank line).
    """
    out: list[Piece] = []
    for piece in pieces:
        if (
            piece[0] == "conflict"
            and len(out) >= 2
            and out[-1][0] == "unchanged"
            and out[-2][0] == "conflict"
            and not out[-1][1].strip()
        ):
            gap = out.pop()
            first = out.pop()
            piece = (
                "conflict",
                first[1] + gap[1] + piece[1],
                first[2] + gap[2] + piece[2],
                first[3] + gap[3] + piece[3],
            )
        out.append(piece)
    return out


def _placed(pieces: list[Piece]) -> tuple[MergeRegion, ...]:
    regions: list[MergeRegion] = []
    base_at = mine_at = theirs_at = 0
    for kind, base, mine, theirs in pieces:
        regions.append(MergeRegion(_KINDS[kind], base, mine, theirs, base_at, mine_at, theirs_at))
        base_at += len(base)
        mine_at += len(mine)
        theirs_at += len(theirs)
    return tuple(regions)


def _newline_of(text: str) -> str:
    at = text.find("\n")
    return "\r\n" if at > 0 and text[at - 1] == "\r" else "\n"


def _one_after_other(first: str, second: str, result: MergeResult) -> str:
    """Both texts, the second starting on a line of its own."""
    if first and second and not first.endswith("\n"):
        return first + result.newline + second
    return first + second


def _conflict_block(region: MergeRegion, labels: MarkerLabels, newline: str) -> str:
    def side(text: str) -> str:
        return text if not text or text.endswith("\n") else text + newline

    size = labels.size
    return (
        f"{'<' * size} {labels.mine}{newline}{side(region.mine)}"
        f"{'|' * size} {labels.base}{newline}{side(region.base)}"
        f"{'=' * size}{newline}{side(region.theirs)}"
        f"{'>' * size} {labels.theirs}{newline}"
    )
