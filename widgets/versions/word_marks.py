"""Changed words inside replaced line pairs: found as rows are laid out, cached, painted."""

from __future__ import annotations

from PySide6.QtGui import QTextLayout

from app.core.compare_rows import Row
from app.core.diff_model import display_line, word_spans
from widgets.versions import compare_paint as paint

Spans = tuple[tuple[int, int], ...]
Marks = tuple[list[QTextLayout.FormatRange], list[QTextLayout.FormatRange]]
MOSTLY = 0.6  # a line pair with more of its text marked than this is marked as a whole
_NONE: Marks = ([], [])


class WordMarks:
    """The word diff of each replaced line pair of one compare, computed once per pair."""

    def __init__(self, lines: tuple[list[str], list[str]]) -> None:
        self._lines = lines
        self._words: dict[tuple[int, int], tuple[Spans, Spans]] = {}
        self._marks: dict[tuple[int, int], Marks] = {}

    def changed(self, row: Row) -> tuple[Spans, Spans]:
        """Changed words of a replaced line pair, in Qt's UTF-16 positions."""
        if row.kind != "change" or row.old_line is None or row.new_line is None:
            return (), ()
        key = (row.old_line, row.new_line)
        cached = self._words.get(key)
        if cached is None:
            old = display_line(self._lines[0][row.old_line])
            new = display_line(self._lines[1][row.new_line])
            old_spans, new_spans = word_spans(old, new)
            cached = (_utf16_spans(old, old_spans), _utf16_spans(new, new_spans))
            self._words[key] = cached
        return cached

    def shown(self, row: Row) -> tuple[Spans, Spans]:
        """The changed words marked on a row. A pair rewritten through and through gets
        none: marking nearly every word says less than the line's own tint does."""
        old_words, new_words = self.changed(row)
        if not old_words and not new_words:
            return (), ()
        old_line = display_line(self._lines[0][row.old_line or 0])
        new_line = display_line(self._lines[1][row.new_line or 0])
        if _share(old_words, old_line) > MOSTLY or _share(new_words, new_line) > MOSTLY:
            return (), ()
        return old_words, new_words

    def marks(self, row: Row, *, make: bool = True) -> Marks:
        """The formats painted over a row's text; ``make=False`` (painting) takes only those
        made already, so the word diff runs in the canvas's slices of work."""
        if row.kind != "change" or row.old_line is None or row.new_line is None:
            return _NONE
        key = (row.old_line, row.new_line)
        marks = self._marks.get(key)
        if marks is None and make:
            old_words, new_words = self.shown(row)
            marks = (
                paint.word_marks(old_words, paint.diff_colours().old_word),
                paint.word_marks(new_words, paint.diff_colours().new_word),
            )
            self._marks[key] = marks
        return marks or _NONE


def _share(spans: Spans, line: str) -> float:
    """How much of ``line`` the spans (UTF-16 positions) cover."""
    units = len(line) if line.isascii() else len(line.encode("utf-16-le")) // 2
    return sum(end - start for start, end in spans) / max(1, units)


def _utf16_spans(line: str, spans: Spans) -> Spans:
    """Python offsets count code points; Qt positions count UTF-16 units (an emoji is 2)."""
    if line.isascii():
        return spans

    def units(offset: int) -> int:
        return len(line[:offset].encode("utf-16-le")) // 2

    return tuple((units(start), units(end)) for start, end in spans)
