"""A text's top-level Markdown blocks, found again after an edit by parsing only near it."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from app.render.commonmark import new_block_parser, top_level_spans

# Blocks re-parsed before the first changed line: CommonMark decides a line by the lines
# before it, but a table's header row is one only when the row after it says so, so the
# block before a changed line can change too. Two is one more than that needs.
_BLOCKS_BEFORE = 2
# Lines the window reaches past a block start it syncs on, for the same look-ahead.
_LOOK_AHEAD = 2
_STATES_KEPT = 64  # the Task and the notes rendered with it take turns
_CHARS_KEPT = 1 << 20  # and a few versions of a large Task, not sixty-four


@dataclass(frozen=True, slots=True)
class _Split:
    text: str
    lines: list[str]
    spans: list[range]
    blocks: list[str]


def _block_text(lines: list[str], span: range) -> str:
    """A block's lines with the line end it has in place (an unclosed fence's last line
    renders with its line end only when it has one)."""
    text = "\n".join(lines[span.start : span.stop])
    return text + "\n" if span.stop < len(lines) else text


def _common_prefix(old: list[str], new: list[str]) -> int:
    """How many leading lines ``old`` and ``new`` share (bisected list compares run in C)."""
    low, high = 0, min(len(old), len(new))
    while low < high:
        middle = (low + high + 1) // 2
        if old[:middle] == new[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(old: list[str], new: list[str], limit: int) -> int:
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if old[len(old) - middle :] == new[len(new) - middle :]:
            low = middle
        else:
            high = middle - 1
    return low


def _first_span_ending_after(spans: list[range], line: int) -> int:
    low, high = 0, len(spans)
    while low < high:
        middle = (low + high) // 2
        if spans[middle].stop > line:
            high = middle
        else:
            low = middle + 1
    return low


def _first_span_starting_at(spans: list[range], line: int) -> int:
    low, high = 0, len(spans)
    while low < high:
        middle = (low + high) // 2
        if spans[middle].start >= line:
            high = middle
        else:
            low = middle + 1
    return low


def normalise_newlines(text: str) -> str:
    """Line ends as the parser counts lines (it takes a lone CR for a line end too)."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


class BlockSplitter:
    """Splits Markdown into its top-level blocks (as CommonMark parses the whole text), each
    of which renders alone as it does in place. After an edit only the blocks near the
    change are parsed again, so a one-word edit costs a few blocks, not the whole text.
    Thread-safe."""

    def __init__(self) -> None:
        self._parser = new_block_parser()
        self._recent: OrderedDict[str, _Split] = OrderedDict()  # by text, newest last
        self._recent_chars = 0
        self._lock = threading.Lock()

    def split(self, text: str) -> list[str]:
        """The text of each top-level block with its line end; blank lines and definitions
        between are left out."""
        return self.split_with_gaps(text)[0]

    def split_with_gaps(
        self, text: str, parse_whole: Callable[[str], list[range]] | None = None
    ) -> tuple[list[str], list[str]]:
        """The blocks, and in text order the pieces that may hold link reference
        definitions: the non-blank lines between blocks and the blocks with a ``]:``.

        ``parse_whole`` gives the top-level spans of a text when it has to be parsed whole
        (no kept text is near it), in place of the block parser: a caller that parses the
        whole text anyway (to render it) saves a second parse."""
        text = normalise_newlines(text)
        with self._lock:
            found = self._recent.get(text)
            if found is None:
                lines = text.split("\n")
                found = self._reuse(text, lines) or self._parse_all(text, lines, parse_whole)
                self._recent[text] = found
                self._recent_chars += len(text)
                while len(self._recent) > 1 and (
                    len(self._recent) > _STATES_KEPT or self._recent_chars > _CHARS_KEPT
                ):
                    self._recent_chars -= len(self._recent.popitem(last=False)[0])
            else:
                self._recent.move_to_end(text)
        lines = found.lines
        carriers: list[str] = []
        if "]:" in text:
            end = 0
            ends = [*found.spans, range(len(lines), len(lines))]
            for span, block in zip(ends, [*found.blocks, ""], strict=True):
                gap = "\n".join(lines[end : span.start])
                if gap.strip():
                    carriers.append(gap)
                if "]:" in block:
                    carriers.append(block)
                end = span.stop
        return found.blocks, carriers

    def _parse_all(
        self, text: str, lines: list[str], parse_whole: Callable[[str], list[range]] | None
    ) -> _Split:
        spans = parse_whole(text) if parse_whole else top_level_spans(self._parser, text)
        return _Split(text, lines, spans, [_block_text(lines, span) for span in spans])

    def _reuse(self, text: str, lines: list[str]) -> _Split | None:
        """The blocks of a kept text that shares most lines with ``lines``, patched."""
        best: tuple[int, int, _Split] | None = None
        for old in reversed(self._recent.values()):
            same = _common_prefix(old.lines, lines)
            tail = _common_suffix(old.lines, lines, min(len(old.lines), len(lines)) - same)
            if best is None or same + tail > best[0] + best[1]:
                best = (same, tail, old)
                if same + tail + 1 >= len(lines):
                    break  # one line changed: no kept text does better
        if best is None or best[0] + best[1] < len(lines) // 2:
            return None
        base = best[2]
        self._recent.move_to_end(base.text)  # a base kept is one kept useful
        return self._patch(base, text, lines, best[0], best[1])

    def _patch(
        self, old: _Split, text: str, lines: list[str], same: int, tail: int
    ) -> _Split | None:
        """``old`` with the blocks around the changed lines parsed again, or None when the
        change reaches too far to find where the old blocks resume."""
        shift = len(lines) - len(old.lines)
        old_changed_end = len(old.lines) - tail
        new_changed_end = len(lines) - tail
        first = max(_first_span_ending_after(old.spans, same) - _BLOCKS_BEFORE, 0)
        start = old.spans[first].start if first else 0
        resume = _first_span_starting_at(old.spans, old_changed_end)
        for reach in (2, 8, 32):
            last = resume + reach
            stop = old.spans[last].stop + shift if last < len(old.spans) else len(lines)
            window = [
                range(s.start + start, s.stop + start)
                for s in top_level_spans(self._parser, "\n".join(lines[start:stop]))
            ]
            old_starts = {s.start + shift: k for k, s in enumerate(old.spans[resume:last], resume)}
            for position, span in enumerate(window):
                if span.start < new_changed_end or span.start + _LOOK_AHEAD > stop:
                    continue
                k = old_starts.get(span.start)
                if k is not None and (stop == len(lines) or position < len(window) - 1):
                    rest = old.spans[k:]
                    if shift:
                        rest = [range(s.start + shift, s.stop + shift) for s in rest]
                    spans = old.spans[:first] + window[:position] + rest
                    blocks = (
                        old.blocks[:first]
                        + [_block_text(lines, span) for span in window[:position]]
                        + old.blocks[k:]
                    )
                    return _Split(text, lines, spans, blocks)
            if stop == len(lines):
                # Parsed to the end: the window is the rest of the text.
                spans = old.spans[:first] + window
                blocks = old.blocks[:first] + [_block_text(lines, span) for span in window]
                return _Split(text, lines, spans, blocks)
        return None
