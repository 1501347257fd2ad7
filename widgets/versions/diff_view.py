"""Side-by-side diff of two texts: rows aligned, scrolled in step, changes tinted."""

from __future__ import annotations

import bisect

import qtawesome as qta
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFontDatabase,
    QResizeEvent,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.diff_model import (
    Chunk,
    SideBySide,
    aligned_texts,
    build_diff,
    display_line,
    split_lines,
    word_spans,
)

OLD_LINE = QColor("#fde8e8")
NEW_LINE = QColor("#e3f5e3")
OLD_WORD = QColor("#f6b1b1")
NEW_WORD = QColor("#a9dfa9")
FILLER = QColor("#eeeeee")


def change_count_text(count: int) -> str:
    if count == 0:
        return "No changes"
    return "1 change" if count == 1 else f"{count} changes"


def _side_pane() -> QPlainTextEdit:
    pane = QPlainTextEdit()
    pane.setReadOnly(True)
    pane.setUndoRedoEnabled(False)
    pane.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    pane.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    return pane


class DiffView(QWidget):
    """Two read-only panes, old on the left and new on the right.

    Line backgrounds are block formats (one cursor per chunk, fast on 5,000-line texts);
    word highlights are extra selections for the rows on screen only, computed as the view
    scrolls.
    """

    current_change_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = build_diff("", "")
        self._old_lines: list[str] = []
        self._new_lines: list[str] = []
        self._current = -1
        self._word_cache: dict[int, tuple[tuple[tuple[int, int], ...], ...]] = {}
        self._change_ends: list[int] = []

        self.old_title = QLabel("Theirs")
        self.new_title = QLabel("Mine")
        self.count_label = QLabel(change_count_text(0))
        self.previous_button = self._nav_button("Previous change", "mdi6.arrow-up")
        self.next_button = self._nav_button("Next change", "mdi6.arrow-down")
        self.previous_button.clicked.connect(self.on_previous_clicked)
        self.next_button.clicked.connect(self.on_next_clicked)
        self.old_pane = _side_pane()
        self.new_pane = _side_pane()
        self.old_pane.setAccessibleName("Old text")
        self.new_pane.setAccessibleName("New text")

        bar = QHBoxLayout()
        bar.addWidget(self.previous_button)
        bar.addWidget(self.next_button)
        bar.addWidget(self.count_label)
        bar.addStretch(1)
        titles = QHBoxLayout()
        titles.addWidget(self.old_title, 1)
        titles.addWidget(self.new_title, 1)
        panes = QHBoxLayout()
        panes.addWidget(self.old_pane)
        panes.addWidget(self.new_pane)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addLayout(titles)
        layout.addLayout(panes, 1)

        self._link_scrollbars()
        self._update_buttons()

    def _nav_button(self, label: str, icon: str) -> QToolButton:
        button = QToolButton()
        button.setText(label)
        button.setToolTip(label)
        button.setAccessibleName(label)
        button.setIcon(qta.icon(icon))
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        return button

    def _link_scrollbars(self) -> None:
        # Both panes hold the same number of rows, so equal values mean equal rows.
        # setValue with the value already set emits nothing, which ends the ping-pong.
        old_v, new_v = self.old_pane.verticalScrollBar(), self.new_pane.verticalScrollBar()
        old_v.valueChanged.connect(new_v.setValue)
        new_v.valueChanged.connect(old_v.setValue)
        old_h, new_h = self.old_pane.horizontalScrollBar(), self.new_pane.horizontalScrollBar()
        old_h.valueChanged.connect(new_h.setValue)
        new_h.valueChanged.connect(old_h.setValue)
        old_v.valueChanged.connect(self.on_scrolled)

    # ---------------------------------------------------------------- feeding

    @property
    def model(self) -> SideBySide:
        return self._model

    @property
    def current_change_index(self) -> int:
        """Index into ``model.changes`` of the change last moved to; -1 before any."""
        return self._current

    def set_titles(self, old_title: str, new_title: str) -> None:
        self.old_title.setText(old_title)
        self.new_title.setText(new_title)

    def set_texts(
        self, old: str, new: str, old_title: str | None = None, new_title: str | None = None
    ) -> None:
        """Diff and show two texts. Builds the model here: for large texts build it off the
        GUI thread with ``build_diff`` and call ``set_model``."""
        self.set_model(build_diff(old, new), old, new, old_title, new_title)

    def set_model(
        self,
        model: SideBySide,
        old: str,
        new: str,
        old_title: str | None = None,
        new_title: str | None = None,
    ) -> None:
        """Show a model built from ``old`` and ``new``: no diffing happens here."""
        if old_title is not None and new_title is not None:
            self.set_titles(old_title, new_title)
        elif old_title is not None or new_title is not None:
            self.set_titles(old_title or self.old_title.text(), new_title or self.new_title.text())
        self._model = model
        self._old_lines = split_lines(old)
        self._new_lines = split_lines(new)
        self._word_cache.clear()
        self._change_ends = [c.row_start + c.rows for c in model.changes]
        self._current = -1
        left, right = aligned_texts(model, old, new)
        self.old_pane.setPlainText(left)
        self.new_pane.setPlainText(right)
        self._tint_lines()
        self.count_label.setText(change_count_text(model.change_count))
        self._update_buttons()
        self.on_scrolled()

    def _tint_lines(self) -> None:
        old_line = QTextBlockFormat()
        old_line.setBackground(OLD_LINE)
        new_line = QTextBlockFormat()
        new_line.setBackground(NEW_LINE)
        filler = QTextBlockFormat()
        filler.setBackground(FILLER)
        old_cursor = QTextCursor(self.old_pane.document())
        new_cursor = QTextCursor(self.new_pane.document())
        old_cursor.beginEditBlock()
        new_cursor.beginEditBlock()
        for chunk in self._model.changes:
            old_rows = chunk.old_end - chunk.old_start
            new_rows = chunk.new_end - chunk.new_start
            _format_rows(old_cursor, chunk.row_start, old_rows, old_line)
            _format_rows(old_cursor, chunk.row_start + old_rows, chunk.rows - old_rows, filler)
            _format_rows(new_cursor, chunk.row_start, new_rows, new_line)
            _format_rows(new_cursor, chunk.row_start + new_rows, chunk.rows - new_rows, filler)
        old_cursor.endEditBlock()
        new_cursor.endEditBlock()

    # ---------------------------------------------------------------- navigation

    def go_to_change(self, index: int) -> None:
        """Bring change ``index`` to the middle of both panes."""
        changes = self._model.changes
        if not 0 <= index < len(changes):
            return
        self._current = index
        row = changes[index].row_start
        for pane in (self.new_pane, self.old_pane):
            block = pane.document().findBlockByNumber(row)
            pane.setTextCursor(QTextCursor(block))
            pane.centerCursor()  # the other pane follows through the linked scrollbars
        self._update_buttons()
        self.current_change_changed.emit(index)

    def on_next_clicked(self) -> None:
        self.go_to_change(self._current + 1)

    def on_previous_clicked(self) -> None:
        self.go_to_change(self._current - 1)

    def _update_buttons(self) -> None:
        count = self._model.change_count
        self.next_button.setEnabled(self._current + 1 < count)
        self.previous_button.setEnabled(self._current > 0)

    # ---------------------------------------------------------------- word highlights

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.on_scrolled()  # more rows may be on screen now

    def visible_rows(self) -> range:
        first = self.old_pane.firstVisibleBlock().blockNumber()
        line_height = max(1, self.old_pane.fontMetrics().lineSpacing())
        shown = self.old_pane.viewport().height() // line_height + 2
        return range(max(first, 0), min(first + shown, self._model.row_count))

    def on_scrolled(self, _value: int = 0) -> None:
        old_marks: list[QTextEdit.ExtraSelection] = []
        new_marks: list[QTextEdit.ExtraSelection] = []
        rows = self.visible_rows()
        changes = self._model.changes
        # Changes are in row order: start at the first one that ends below the top row.
        start = bisect.bisect_right(self._change_ends, rows.start)
        for chunk in changes[start:]:
            if chunk.row_start >= rows.stop:
                break
            if chunk.tag != "replace":
                continue
            paired = min(chunk.old_end - chunk.old_start, chunk.new_end - chunk.new_start)
            first = max(chunk.row_start, rows.start)
            last = min(chunk.row_start + paired, rows.stop)
            for row in range(first, last):
                old_spans, new_spans = self._spans_for(chunk, row)
                old_marks.extend(_word_marks(self.old_pane, row, old_spans, OLD_WORD))
                new_marks.extend(_word_marks(self.new_pane, row, new_spans, NEW_WORD))
        self.old_pane.setExtraSelections(old_marks)
        self.new_pane.setExtraSelections(new_marks)

    def _spans_for(self, chunk: Chunk, row: int) -> tuple[tuple[tuple[int, int], ...], ...]:
        cached = self._word_cache.get(row)
        if cached is None:
            offset = row - chunk.row_start
            old_line = display_line(self._old_lines[chunk.old_start + offset])
            new_line = display_line(self._new_lines[chunk.new_start + offset])
            old_spans, new_spans = word_spans(old_line, new_line)
            cached = (_utf16_spans(old_line, old_spans), _utf16_spans(new_line, new_spans))
            self._word_cache[row] = cached
        return cached


def _utf16_spans(line: str, spans: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """Python offsets count code points; Qt positions count UTF-16 units (an emoji is 2)."""
    if line.isascii():
        return spans

    def units(offset: int) -> int:
        return len(line[:offset].encode("utf-16-le")) // 2

    return tuple((units(start), units(end)) for start, end in spans)


def _format_rows(cursor: QTextCursor, first: int, count: int, fmt: QTextBlockFormat) -> None:
    if count <= 0:
        return
    document = cursor.document()
    cursor.setPosition(document.findBlockByNumber(first).position())
    last = document.findBlockByNumber(first + count - 1)
    cursor.setPosition(last.position(), QTextCursor.MoveMode.KeepAnchor)
    cursor.mergeBlockFormat(fmt)


def _word_marks(
    pane: QPlainTextEdit, row: int, spans: tuple[tuple[int, int], ...], colour: QColor
) -> list[QTextEdit.ExtraSelection]:
    block = pane.document().findBlockByNumber(row)
    marks = []
    for start, end in spans:
        mark = QTextEdit.ExtraSelection()
        fmt = QTextCharFormat()
        fmt.setBackground(colour)
        mark.format = fmt
        cursor = QTextCursor(block)
        cursor.setPosition(block.position() + min(start, block.length() - 1))
        cursor.setPosition(
            block.position() + min(end, block.length() - 1), QTextCursor.MoveMode.KeepAnchor
        )
        mark.cursor = cursor
        marks.append(mark)
    return marks
