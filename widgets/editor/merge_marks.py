"""A merge's marks in the Task editor: my changes, theirs, and each conflict, kept in place
while the operator edits, and painted only where the editor shows text.

Marks are plain positions moved by the document's ``contentsChange``, not QTextCursors: a
cursor lays out its block when placed, and two fully different 256 KB versions make
thousands of marks. Only the marks on screen become extra selections (after a scroll, a
resize or an edit), so opening a merge costs about what loading the text does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QPoint
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit

if TYPE_CHECKING:  # the merge's modules load with the first merge, on the runner
    from app.core.merge_layout import Mark, MarkKind

# Background tints by kind; the conflict's marker lines and the banner's counts say the same
# without colour. Mine is blue, theirs amber, a conflict red, as the merge banner names them.
TINTS: dict[MarkKind, QColor] = {
    "mine": QColor("#dbe9fb"),
    "theirs": QColor("#fbedd0"),
    "both": QColor("#e6e9ef"),
    "conflict": QColor("#f9d9d9"),
    "conflict_mine": QColor("#dbe9fb"),
    "conflict_theirs": QColor("#fbedd0"),
}
RESOLVED_TINT = QColor("#e3f5e3")
"""A conflict once resolved, by a choice or by hand."""


def utf16_positions(text: str, indices: Sequence[int]) -> list[int]:
    """The editor's positions (UTF-16 code units) of Python string ``indices`` (ascending)."""
    if text.isascii():
        return list(indices)
    out: list[int] = []
    last = position = 0
    for index in indices:
        position += len(text[last:index].encode("utf-16-le")) // 2
        out.append(position)
        last = index
    return out


def moved(x: int, start: bool, pos: int, removed: int, added: int) -> int:
    """Where a mark's start (or end) at ``x`` is after ``removed`` characters at ``pos`` were
    replaced by ``added``. Text typed at a mark's edge stays outside it; text typed over part
    of a mark becomes part of it. Equal counts are a format change (the highlighter) or an
    overwrite of the same length: nothing moves."""
    if removed == added:
        return x
    end = pos + removed
    if x < pos or (x == pos and not start):
        return x
    if x > end or (x == end and start):
        return x - removed + added
    return pos if start else pos + added


@dataclass(slots=True)
class _Span:
    kind: MarkKind
    conflict: int
    start: int  # editor positions
    end: int


class MergeMarks(QObject):
    """Paints the marks of one merge on ``editor`` until ``clear()``.

    ``on_gone`` is called when an edit swept every mark away (Undo of the whole merge, the
    text replaced): the marks are cleared first.
    """

    def __init__(self, editor: QPlainTextEdit, on_gone: Callable[[], None] | None = None) -> None:
        super().__init__(editor)
        self._editor = editor
        self._on_gone = on_gone
        self._spans: list[_Span] = []
        self._blocks: dict[int, _Span] = {}  # each conflict's whole block, by number
        self._open: set[int] = set()  # conflicts not resolved yet
        self._shown: tuple[int, int] | None = None  # the range painted last
        editor.document().contentsChange.connect(self._on_contents_change)
        editor.verticalScrollBar().valueChanged.connect(self._on_scrolled)  # not a closure
        editor.viewport().installEventFilter(self)

    def _on_scrolled(self, _value: int) -> None:
        self.repaint()

    @property
    def active(self) -> bool:
        return bool(self._spans)

    def show(self, text: str, marks: Sequence[Mark]) -> None:
        """Marks ``marks`` of ``text``, which the editor holds now."""
        edges = sorted({i for m in marks for i in (m.start, m.end)})
        at = dict(zip(edges, utf16_positions(text, edges), strict=True))
        self._spans = [_Span(m.kind, m.conflict, at[m.start], at[m.end]) for m in marks]
        self._blocks = {s.conflict: s for s in self._spans if s.kind == "conflict"}
        self._open = set(self._blocks)
        self.repaint(force=True)

    def clear(self) -> None:
        self._spans = []
        self._blocks = {}
        self._open = set()
        self._shown = None
        self._editor.setExtraSelections([])

    # ---------------------------------------------------------------- conflicts

    def conflict_count(self) -> int:
        return len(self._blocks)

    def conflict_cursor(self, conflict: int) -> QTextCursor | None:
        """A cursor selecting the conflict's whole text, as it stands now."""
        span = self._blocks.get(conflict)
        if span is None:
            return None
        cursor = QTextCursor(self._editor.document())
        cursor.setPosition(span.start)
        cursor.setPosition(span.end, QTextCursor.MoveMode.KeepAnchor)
        return cursor

    def is_open(self, conflict: int) -> bool:
        """Not resolved yet: no choice made, and its marker lines still stand."""
        return conflict in self._open

    def open_conflicts(self) -> list[int]:
        return sorted(self._open)

    def conflict_at(self, position: int) -> int | None:
        """The conflict whose text holds ``position``, if any."""
        for conflict, span in self._blocks.items():
            if span.start <= position <= span.end:
                return conflict
        return None

    def replace_conflict(self, conflict: int, text: str) -> None:
        """Puts ``text`` in place of the conflict's whole block, as one undoable edit."""
        cursor = self.conflict_cursor(conflict)
        if cursor is None:
            return
        start = cursor.selectionStart()
        cursor.beginEditBlock()
        cursor.insertText(text)
        cursor.endEditBlock()
        span = self._blocks[conflict]
        span.start, span.end = start, cursor.position()
        self._open.discard(conflict)
        # Its parts' texts are gone: their marks would be empty or stray.
        self._spans = [s for s in self._spans if s.conflict != conflict or s.kind == "conflict"]
        self.repaint(force=True)

    # ---------------------------------------------------------------- following edits

    def _on_contents_change(self, pos: int, removed: int, added: int) -> None:
        if not self._spans:
            return
        if removed != added:
            whole = self._editor.document().characterCount() - 1
            if pos == 0 and removed > 0 and added >= whole:
                self.clear()  # the whole text was replaced (Undo of the merge, a load)
                if self._on_gone is not None:
                    self._on_gone()
                return
            for span in self._spans:
                span.start = moved(span.start, True, pos, removed, added)
                span.end = moved(span.end, False, pos, removed, added)
        touched = [n for n, s in self._blocks.items() if s.start <= pos + added and pos <= s.end]
        for conflict in touched:
            self._recheck(conflict)
        self._shown = None

    def _recheck(self, conflict: int) -> None:
        cursor = self.conflict_cursor(conflict)
        from app.core.merge_layout import has_markers  # loaded by the merge shown here

        text = cursor.selectedText().replace("\u2029", "\n") if cursor is not None else ""
        if has_markers(text):
            self._open.add(conflict)
        else:
            self._open.discard(conflict)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and self._spans:
            self.repaint(force=True)
        return super().eventFilter(watched, event)

    # ---------------------------------------------------------------- painting

    def visible_range(self) -> tuple[int, int]:
        editor = self._editor
        first = editor.firstVisibleBlock().position()
        viewport = editor.viewport()
        corner = QPoint(viewport.width(), viewport.height())
        return first, editor.cursorForPosition(corner).position() + 1

    def repaint(self, *, force: bool = False) -> None:
        """Extra selections for the marks on screen (all of them lie in ``_spans``)."""
        if not self._spans:
            return
        shown = self.visible_range()
        if shown == self._shown and not force:
            return
        self._shown = shown
        low, high = shown
        document = self._editor.document()
        selections: list[QTextEdit.ExtraSelection] = []
        for span in self._spans:
            if span.end < low or span.start > high or span.end <= span.start:
                continue
            closed = span.kind == "conflict" and span.conflict not in self._open
            fmt = QTextCharFormat()
            fmt.setBackground(RESOLVED_TINT if closed else TINTS[span.kind])
            cursor = QTextCursor(document)
            cursor.setPosition(span.start)
            cursor.setPosition(span.end, QTextCursor.MoveMode.KeepAnchor)
            selection = QTextEdit.ExtraSelection()
            selection.format = fmt
            selection.cursor = cursor
            selections.append(selection)
        self._editor.setExtraSelections(selections)
