"""The pure side-by-side diff model: immutable line chunks, change navigation, word spans."""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import compress, count
from typing import TYPE_CHECKING, Literal, NamedTuple

from app.core.cancel import NEVER, CancelToken

if TYPE_CHECKING:
    from rapidfuzz.distance import Opcodes

Tag = Literal["equal", "replace", "delete", "insert"]
Span = tuple[int, int]
"""A half-open range of character offsets inside one line."""

# Characters Qt's plain-text editors turn into a new block or a visual line break. Shown as
# a visible mark instead, so that each model line is exactly one row on both sides.
_ROW_BREAKERS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\ufdd0\ufdd1]")
ROW_BREAK_MARK = "⏎"
_WORD_TOKENS = re.compile(r"\w+|\s+|[^\w\s]")


class Chunk(NamedTuple):
    """Old lines ``[old_start, old_end)`` matched to new lines ``[new_start, new_end)``.

    A named tuple, immutable as a frozen dataclass is, but made in a fifth of the time: two
    fully different 256 KB texts make thousands of them."""

    tag: Tag
    old_start: int
    old_end: int
    new_start: int
    new_end: int
    row_start: int  # the first display row of this chunk when both sides are aligned

    @property
    def rows(self) -> int:
        """Display rows: the longer side; the shorter side is padded with filler rows."""
        return max(self.old_end - self.old_start, self.new_end - self.new_start)

    @property
    def changed_lines(self) -> int:
        if self.tag == "equal":
            return 0
        return (self.old_end - self.old_start) + (self.new_end - self.new_start)


@dataclass(frozen=True, slots=True)
class LineCounts:
    """A diff's size in words a reader expects: lines changed, added and removed."""

    changed: int
    added: int
    removed: int


@dataclass(frozen=True, slots=True)
class SideBySide:
    """A diff of two texts as line chunks in order, covering both texts end to end."""

    chunks: tuple[Chunk, ...]
    changes: tuple[Chunk, ...]  # the chunks that are not equal, in order
    old_line_count: int
    new_line_count: int
    row_count: int

    @property
    def change_count(self) -> int:
        return len(self.changes)

    @property
    def changed_lines(self) -> int:
        """Old lines removed plus new lines added: what "as small as" is measured in."""
        return sum(c.changed_lines for c in self.changes)

    @property
    def removed_lines(self) -> int:
        """Lines of the old text that the new one drops or replaces."""
        return sum(c.old_end - c.old_start for c in self.changes)

    @property
    def added_lines(self) -> int:
        """Lines of the new text that take their place or are new."""
        return sum(c.new_end - c.new_start for c in self.changes)

    @property
    def line_counts(self) -> LineCounts:
        """Lines changed, added and removed as a reader counts them: within a change, a line
        replaced by one line is one changed line, not one removed and one added."""
        changed = added = removed = 0
        for chunk in self.changes:
            old, new = chunk.old_end - chunk.old_start, chunk.new_end - chunk.new_start
            both = min(old, new)
            changed, added, removed = changed + both, added + new - both, removed + old - both
        return LineCounts(changed, added, removed)

    def next_change(self, row: int) -> int | None:
        """Index (into ``changes``) of the first change starting after display row ``row``."""
        for index, chunk in enumerate(self.changes):
            if chunk.row_start > row:
                return index
        return None

    def previous_change(self, row: int) -> int | None:
        """Index of the last change starting before display row ``row``."""
        found = None
        for index, chunk in enumerate(self.changes):
            if chunk.row_start >= row:
                break
            found = index
        return found


def split_lines(text: str) -> list[str]:
    """Lines split on ``\\n`` only, each keeping its ending, so CRLF and a missing final
    newline count as differences (the server stores text byte for byte)."""
    if not text:
        return []
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def line_keys(text: str) -> list[Hashable]:
    """What ``split_lines`` gives, as keys that compare as those lines do, made at C speed:
    the pieces between newlines, the unended last line (if any) wrapped in a tuple so it never
    equals an ended line of the same text."""
    if not text:
        return []
    keys: list[Hashable] = list(text.split("\n"))
    last = keys.pop()
    if last:
        keys.append((last,))
    return keys


def display_line(line: str) -> str:
    """A model line as one display row: ending dropped, other break characters made visible."""
    if line.endswith("\n"):
        line = line[:-1]
    if line.endswith("\r"):
        line = line[:-1]
    return _ROW_BREAKERS.sub(ROW_BREAK_MARK, line)


def _common_affixes(old: Sequence[Hashable], new: Sequence[Hashable]) -> tuple[int, int]:
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


def _lcs_blocks(
    old: list[int], new: list[int], *, shares_little: bool | None = None
) -> list[tuple[int, int, int]]:
    """(old index, new index, length) of an LCS's equal runs, numbered items.

    Items found on one side only can't be in any common subsequence, so when most of them are
    (texts that share little) the LCS runs on the rest alone, its runs mapped back (Meld's
    matcher does the same): fully different 256 KB texts take a fiftieth of the time.
    ``shares_little``: already known (None: found out here, from the items' kinds)."""
    if shares_little is None:
        old_kinds, new_kinds = set(old), set(new)
        shares_little = len(old_kinds & new_kinds) * 2 < max(len(old_kinds), len(new_kinds))
    if not shares_little:
        return [
            (op.src_start, op.dest_start, op.src_end - op.src_start)
            for op in _lcs_opcodes(old, new)
            if op.tag == "equal"
        ]
    both = set(old).intersection(new)
    old_at = list(compress(count(), map(both.__contains__, old)))
    new_at = list(compress(count(), map(both.__contains__, new)))
    blocks: list[tuple[int, int, int]] = []
    for op in _lcs_opcodes([old[i] for i in old_at], [new[j] for j in new_at]):
        if op.tag != "equal":
            continue
        for k in range(op.src_start, op.src_end):
            i, j = old_at[k], new_at[op.dest_start + k - op.src_start]
            if blocks and blocks[-1][0] + blocks[-1][2] == i and blocks[-1][1] + blocks[-1][2] == j:
                blocks[-1] = (blocks[-1][0], blocks[-1][1], blocks[-1][2] + 1)
            else:
                blocks.append((i, j, 1))
    return blocks


def _lcs_opcodes(old: Sequence[Hashable], new: Sequence[Hashable]) -> Opcodes:
    """rapidfuzz's LCS edit operations. Imported by the first diff, not with the modules
    that name this one: none of it is on the way to the first Task (~15 ms)."""
    from rapidfuzz.distance import LCSseq

    return LCSseq.opcodes(old, new)


def matching_blocks(
    old: Sequence[Hashable], new: Sequence[Hashable], *, numbered: bool = False
) -> list[tuple[int, int, int]]:
    """(old index, new index, length) of equal runs, from a longest common subsequence.

    An LCS is the smallest diff there is, so it never has more changed lines than
    difflib's greedy matcher; rapidfuzz computes it bit-parallel in C++, where
    SequenceMatcher(autojunk=False) turns quadratic on the blank lines Markdown is full of.
    The common prefix and suffix are always part of some LCS, so trimming them is safe.
    Items (lines, or words) are numbered first so rapidfuzz compares small ints;
    ``numbered=True`` says they already are.
    """
    prefix, suffix = _common_affixes(old, new)
    blocks: list[tuple[int, int, int]] = []
    if prefix:
        blocks.append((0, 0, prefix))
    old_mid = old[prefix : len(old) - suffix]
    new_mid = new[prefix : len(new) - suffix]
    if old_mid and new_mid:
        shares_little = None
        if not numbered:
            old_mid, new_mid = numbered_alike(old_mid, new_mid)
            # numbered_alike numbers the old items first: a new item numbered below their
            # count is one the old text has too. Counted in C, without building sets.
            shared = sum(map(len(old_mid).__gt__, new_mid))
            shares_little = shared * 2 < len(new_mid)
        blocks += [
            (prefix + i, prefix + j, size)
            for i, j, size in _lcs_blocks(
                list(old_mid),  # type: ignore[arg-type]
                list(new_mid),  # type: ignore[arg-type]
                shares_little=shares_little,
            )
        ]
    if suffix:
        blocks.append((len(old) - suffix, len(new) - suffix, suffix))
    return blocks


def _chunks_from_blocks(
    blocks: list[tuple[int, int, int]], old_len: int, new_len: int
) -> tuple[list[Chunk], int]:
    """The chunks between and of the equal runs, in one pass, and the display rows in all."""
    chunks: list[Chunk] = []
    append, make = chunks.append, tuple.__new__  # Chunk(...) through __new__ costs twice
    old_pos = new_pos = row = 0
    equal_end = -1  # the old end of the last chunk when it is an equal one
    for old_at, new_at, size in [*blocks, (old_len, new_len, 0)]:
        if old_at > old_pos or new_at > new_pos:
            if old_at > old_pos and new_at > new_pos:
                tag: Tag = "replace"
            elif old_at > old_pos:
                tag = "delete"
            else:
                tag = "insert"
            append(make(Chunk, (tag, old_pos, old_at, new_pos, new_at, row)))
            row += max(old_at - old_pos, new_at - new_pos)
            equal_end = -1
        if size:
            if equal_end == old_at:
                last = chunks.pop()  # adjacent equal runs read as one chunk
                append(
                    make(Chunk, ("equal", last[1], old_at + size, last[3], new_at + size, last[5]))
                )
            else:
                append(make(Chunk, ("equal", old_at, old_at + size, new_at, new_at + size, row)))
            row += size
            equal_end = old_at + size
        old_pos, new_pos = old_at + size, new_at + size
    return chunks, row


def build_diff(old: str, new: str, cancel: CancelToken = NEVER) -> SideBySide:
    """Diff ``old`` against ``new`` line by line. Pure; safe to run off the GUI thread.

    ``cancel`` is checked between steps: a newer request raises ``CancelledError`` here.
    """
    old_lines = line_keys(old)
    new_lines = line_keys(new)
    cancel.check()
    blocks = matching_blocks(old_lines, new_lines)
    cancel.check()
    return diff_from_blocks(blocks, len(old_lines), len(new_lines))


def diff_from_blocks(
    blocks: list[tuple[int, int, int]], old_lines: int, new_lines: int
) -> SideBySide:
    """The diff of two texts of ``old_lines`` and ``new_lines`` lines from their matching
    blocks (``matching_blocks``), for a caller that has them already (a merge's, say)."""
    chunks, row = _chunks_from_blocks(blocks, old_lines, new_lines)
    return SideBySide(
        chunks=tuple(chunks),
        changes=tuple(c for c in chunks if c.tag != "equal"),
        old_line_count=old_lines,
        new_line_count=new_lines,
        row_count=row,
    )


def aligned_texts(model: SideBySide, old: str, new: str) -> tuple[str, str]:
    """The two display texts, one row per line, padded with empty filler rows so that
    matching rows line up. ``old`` and ``new`` must be the texts the model was built from."""
    old_lines = split_lines(old)
    new_lines = split_lines(new)
    left: list[str] = []
    right: list[str] = []
    for chunk in model.chunks:
        olds = [display_line(x) for x in old_lines[chunk.old_start : chunk.old_end]]
        news = [display_line(x) for x in new_lines[chunk.new_start : chunk.new_end]]
        left.extend(olds)
        left.extend([""] * (chunk.rows - len(olds)))
        right.extend(news)
        right.extend([""] * (chunk.rows - len(news)))
    return "\n".join(left), "\n".join(right)


def _merge_spans(spans: list[Span], line: str) -> tuple[Span, ...]:
    """Join spans separated only by whitespace, so a changed phrase reads as one mark."""
    merged: list[Span] = []
    for start, end in spans:
        if merged and (merged[-1][1] == start or line[merged[-1][1] : start].isspace()):
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return tuple(merged)


def word_spans(old_line: str, new_line: str) -> tuple[tuple[Span, ...], tuple[Span, ...]]:
    """The changed words of a changed line pair: character spans in each line.

    Computed per visible pair by the view, never for a whole text at once.
    """
    old_tokens = _WORD_TOKENS.findall(old_line)
    new_tokens = _WORD_TOKENS.findall(new_line)
    old_starts = _offsets(old_tokens)
    new_starts = _offsets(new_tokens)
    old_spans: list[Span] = []
    new_spans: list[Span] = []
    for op in _lcs_opcodes(old_tokens, new_tokens):
        if op.tag == "equal":
            continue
        if op.src_end > op.src_start:
            old_spans.append((old_starts[op.src_start], old_starts[op.src_end]))
        if op.dest_end > op.dest_start:
            new_spans.append((new_starts[op.dest_start], new_starts[op.dest_end]))
    return _merge_spans(old_spans, old_line), _merge_spans(new_spans, new_line)


def _offsets(tokens: list[str]) -> list[int]:
    """Start offset of each token, plus the end of the line."""
    starts = [0]
    for token in tokens:
        starts.append(starts[-1] + len(token))
    return starts
