"""The pure side-by-side diff model: immutable line chunks, change navigation, word spans."""

from __future__ import annotations

import io
import re
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Literal, NamedTuple

from app.core.cancel import NEVER, CancelToken
from app.core.line_lcs import lcs_opcodes
from app.core.line_lcs import matching_blocks as matching_blocks  # the diff's own, named here too
from app.core.line_lcs import numbered_alike as numbered_alike

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
    # StringIO with newline="\n" splits on "\n" alone and translates nothing, in C: two
    # thirds of the time of a split and a "\n" added to each piece.
    return io.StringIO(text, newline="\n").readlines()


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


def _chunks_from_blocks(
    blocks: list[tuple[int, int, int]], old_len: int, new_len: int
) -> tuple[list[Chunk], list[Chunk], int]:
    """The chunks between and of the equal runs in one pass, the changes among them, and
    the display rows in all. Fully different texts make thousands: every step here counts
    (no max(), no second pass for the changes)."""
    chunks: list[Chunk] = []
    changes: list[Chunk] = []
    append, make = chunks.append, tuple.__new__  # Chunk(...) through __new__ costs twice
    change = changes.append
    old_pos = new_pos = row = 0
    equal_end = -1  # the old end of the last chunk when it is an equal one
    for old_at, new_at, size in [*blocks, (old_len, new_len, 0)]:
        removed, added = old_at - old_pos, new_at - new_pos
        if removed or added:
            if removed and added:
                tag: Tag = "replace"
            elif removed:
                tag = "delete"
            else:
                tag = "insert"
            chunk = make(Chunk, (tag, old_pos, old_at, new_pos, new_at, row))
            append(chunk)
            change(chunk)
            row += removed if removed > added else added
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
    return chunks, changes, row


def build_diff(old: str, new: str, cancel: CancelToken = NEVER) -> SideBySide:
    """Diff ``old`` against ``new`` line by line. Pure; safe to run off the GUI thread.

    ``cancel`` is checked between steps: a newer request raises ``CancelledError`` here.
    """
    if old == new:  # a review with nothing decided yet shows live beside itself
        cancel.check()
        lines = old.count("\n") + (1 if old and not old.endswith("\n") else 0)
        return diff_from_blocks([(0, 0, lines)] if lines else [], lines, lines)
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
    chunks, changes, row = _chunks_from_blocks(blocks, old_lines, new_lines)
    return SideBySide(
        chunks=tuple(chunks),
        changes=tuple(changes),
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
    for op in lcs_opcodes(old_tokens, new_tokens):
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
