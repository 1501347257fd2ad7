"""A proposal's review, pure: its hunks, each one's decision, the rebase onto live, the result.

The hunks are the changes of the raw diff base → proposal (``diff_model.build_diff``). Each
hunk is accepted, rejected or edited (the operator's own text for its lines). The accepted
draft is the base with every accepted or edited hunk applied. When the live Task has moved
since the base, that draft is rebased onto live by the three-way merge (base, live, draft):
changes that merge cleanly are placed; where the live Task changed the same text, the hunk
"couldn't be placed". Such a hunk is never dropped and never placed silently: it is shown with
its text, and only an explicit Accept (or Edit) puts the proposal's text there over live's.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import accumulate

from app.core.cancel import NEVER, CancelToken
from app.core.diff_model import (
    Chunk,
    SideBySide,
    diff_from_blocks,
    matching_blocks,
    split_lines,
)
from app.core.merge import MergeResult, Prepared, RegionKind, Resolution, merge_texts


class Decision(enum.Enum):
    ACCEPT = "accept"
    REJECT = "reject"
    EDIT = "edit"


@dataclass(frozen=True, slots=True)
class HunkDecision:
    """What the operator decided for one hunk; ``text`` is the edited lines for EDIT."""

    decision: Decision
    text: str = ""


@dataclass(frozen=True, slots=True)
class Hunk:
    """One change of base → proposal: base lines ``[old_start, old_end)`` become ``new``."""

    index: int
    key: str  # stable across restarts and revisions while the change itself is the same
    chunk: Chunk
    old: str  # the base's lines
    new: str  # the proposal's lines
    base_from: int  # character offsets of ``old`` in the base
    base_to: int
    placeable: bool  # False: the live Task changed this text too (moved base only)
    live_text: str = ""  # for a hunk that can't be placed: what live has there instead

    @property
    def summary(self) -> str:
        """A few words of the hunk: its first changed line, or what it removes."""
        line = next((ln.strip() for ln in (self.new or self.old).splitlines() if ln.strip()), "")
        verb = "Change" if self.old and self.new else "Add" if self.new else "Remove"
        return f"{verb}: {line[:60]}" if line else f"{verb} blank lines"


def hunk_key(base_version: int, chunk: Chunk, old: str, new: str) -> str:
    digest = hashlib.sha256(f"{base_version}\0{chunk.old_start}\0{old}\0{new}".encode())
    return digest.hexdigest()[:24]


@dataclass(frozen=True, slots=True)
class ReviewBasis:
    """What a review is computed from: built once per proposal revision, off the GUI thread."""

    base: str
    live: str
    proposal: str
    base_version: int
    live_version: int
    raw: SideBySide  # base → proposal, the compare view's model
    hunks: tuple[Hunk, ...]
    merge: MergeResult | None = None  # base, live, proposal: where each hunk was placed

    @property
    def moved(self) -> bool:
        return self.base_version != self.live_version

    def undecided(self, decisions: Mapping[str, HunkDecision]) -> tuple[Hunk, ...]:
        return tuple(h for h in self.hunks if h.key not in decisions)

    def unplaced(self) -> tuple[Hunk, ...]:
        return tuple(h for h in self.hunks if not h.placeable)


def review_basis(
    base: str,
    live: str,
    proposal: str,
    *,
    base_version: int,
    live_version: int,
    cancel: CancelToken = NEVER,
) -> ReviewBasis:
    """The hunks of base → proposal, each marked placeable on the live Task or not."""
    base_lines, new_lines = split_lines(base), split_lines(proposal)
    # One matching of base → proposal serves the compare view and the rebase's merge. The
    # lines are matched as they are, not numbered first: a proposal and a live Task are
    # mostly the base, which the matching finds window by window without numbering
    # (numbering the three texts cost more than both matchings then).
    cancel.check()
    proposed = matching_blocks(base_lines, new_lines)
    raw = diff_from_blocks(proposed, len(base_lines), len(new_lines))
    starts = _offsets(base_lines)
    conflicts: tuple[tuple[int, int, str], ...] = ()
    merged = None
    if base_version != live_version and live != base:
        cancel.check()
        live_lines = split_lines(live)  # only a moved base needs live's lines
        moved = matching_blocks(base_lines, live_lines)
        prepared = Prepared(base_lines, new_lines, live_lines, base_lines, new_lines, live_lines)
        merged = merge_texts(
            base, live, proposal, cancel=cancel, blocks=(proposed, moved), prepared=prepared
        )
        conflicts = tuple((r.base_start, r.base_end, r.theirs) for r in merged.conflicts)
    hunks = []
    for index, chunk in enumerate(raw.changes):
        start, end = starts[chunk.old_start], starts[chunk.old_end]
        old = base[start:end]  # the base's lines, by their offsets: one slice, no join
        new = "".join(new_lines[chunk.new_start : chunk.new_end])
        clashes = [c for c in conflicts if _touches(c[0], c[1], start, end)] if conflicts else []
        hunks.append(
            Hunk(
                index=index,
                key=hunk_key(base_version, chunk, old, new),
                chunk=chunk,
                old=old,
                new=new,
                base_from=start,
                base_to=end,
                placeable=not clashes,
                live_text="".join(c[2] for c in clashes),
            )
        )
    return ReviewBasis(base, live, proposal, base_version, live_version, raw, tuple(hunks), merged)


def _offsets(lines: list[str]) -> list[int]:
    """The character offset where each line starts, and one past the end."""
    return list(accumulate(map(len, lines), initial=0))  # in C: a loop here was 5 ms


def _touches(a_start: int, a_end: int, b_start: int, b_end: int) -> bool:
    """Two ranges overlap, or an empty one (an insertion) sits inside or at an edge of the other."""
    if a_start == a_end or b_start == b_end:
        return a_start <= b_end and b_start <= a_end
    return a_start < b_end and b_start < a_end


def accepted_draft(basis: ReviewBasis, decisions: Mapping[str, HunkDecision]) -> str:
    """The base with each accepted hunk's proposal lines and each edited hunk's text in."""
    taken = [
        (hunk, decided)
        for hunk in basis.hunks
        if (decided := decisions.get(hunk.key)) is not None
        and decided.decision is not Decision.REJECT
    ]
    if not taken:  # nothing accepted or edited (a review just opened): the base itself
        return basis.base
    # Cut from the base by the hunks' own offsets: a rejected or undecided hunk's lines are
    # the base's, so only the taken ones break the base up (no second split of 256 KB).
    base, lines = basis.base, basis.raw.old_line_count
    parts: list[str] = []
    at = 0
    for hunk, decided in taken:
        parts.append(base[at : hunk.base_from])
        if decided.decision is Decision.ACCEPT:
            parts.append(hunk.new)
        else:
            parts.append(_as_lines(decided.text, followed=hunk.chunk.old_end < lines))
        at = hunk.base_to
    parts.append(base[at:])
    return "".join(parts)


def _as_lines(text: str, *, followed: bool) -> str:
    """Edited lines, ending in a newline when more lines follow them."""
    if text and followed and not text.endswith("\n"):
        return text + "\n"
    return text


@dataclass(frozen=True, slots=True)
class ReviewResult:
    """What publishing would save now, and what is still to decide."""

    text: str  # the text to publish (on the live Task)
    undecided: int
    merge: MergeResult | None  # the rebase onto live; None when the base has not moved

    @property
    def can_publish(self) -> bool:
        return self.undecided == 0


def review_result(
    basis: ReviewBasis, decisions: Mapping[str, HunkDecision], cancel: CancelToken = NEVER
) -> ReviewResult:
    """The accepted draft, rebased onto the live Task when the base has moved.

    A region the rebase can't place holds only the accepted or edited hunks that clash
    there (rejected ones equal the base and never clash), so taking the draft's side is
    exactly "the operator accepted the proposal's text over live's here".
    """
    draft = accepted_draft(basis, decisions)
    undecided = len(basis.undecided(decisions))
    if not basis.moved or basis.live == basis.base:
        return ReviewResult(draft, undecided, None)
    if draft == basis.base:  # nothing accepted yet: the live Task as it is
        return ReviewResult(basis.live, undecided, None)
    # Everything accepted as proposed: the merge the hunks were placed with is this one.
    same = draft == basis.proposal and basis.merge is not None
    merged = basis.merge if same else merge_texts(basis.base, basis.live, draft, cancel=cancel)
    assert merged is not None
    resolved = merged.take_all(Resolution.MINE)
    text = resolved.text
    assert text is not None  # every conflict was just resolved
    return ReviewResult(text, undecided, merged)


def placed_changes(result: ReviewResult) -> int:
    """How many of the proposal's changes the rebase placed cleanly on live."""
    if result.merge is None:
        return 0
    return sum(1 for r in result.merge.regions if r.kind in (RegionKind.MINE, RegionKind.BOTH))
