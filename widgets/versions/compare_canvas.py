"""The scrolling body of the compare view: both sides' rows aligned, wrapped, drawn lazily.

Only rows on screen are laid out (a QTextLayout per line, wrapped to its side's width, shared
by identical lines) and painted; every other row's height is estimated from its length. The
work is done in slices of a few milliseconds between events (Meld's matcher yields every N
steps the same way): showing two 256 KB texts never holds the GUI thread for long, where a
QPlainTextEdit takes 30-50 ms to swallow them and an HTML table of 5,000 rows far longer.
One scroll position serves both sides, so they can never drift apart.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QPoint, QRect, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QResizeEvent,
    QTextLayout,
)
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSlider, QWidget

from app.core.compare_rows import RowPlan
from app.core.diff_model import SideBySide, build_diff, display_line
from widgets.versions import compare_paint as paint
from widgets.versions.row_heights import RowHeights
from widgets.versions.word_marks import WordMarks

SLICE = 0.004  # seconds of layout or estimating before the event loop gets its turn
LAYOUT_CACHE = 3000  # laid-out texts kept; their line counts are kept regardless

_KEY_ACTIONS = {
    Qt.Key.Key_Up: QAbstractSlider.SliderAction.SliderSingleStepSub,
    Qt.Key.Key_Down: QAbstractSlider.SliderAction.SliderSingleStepAdd,
    Qt.Key.Key_PageUp: QAbstractSlider.SliderAction.SliderPageStepSub,
    Qt.Key.Key_PageDown: QAbstractSlider.SliderAction.SliderPageStepAdd,
    Qt.Key.Key_Home: QAbstractSlider.SliderAction.SliderToMinimum,
    Qt.Key.Key_End: QAbstractSlider.SliderAction.SliderToMaximum,
}


class CompareCanvas(QAbstractScrollArea):
    """Rows of a ``RowPlan``: old on the left, new on the right, connectors between.

    Scrolling counts text lines. The top of the view is anchored to a row (and a line inside
    it), so heights that change as rows are laid out only ever move rows below the anchor.
    """

    rows_changed = Signal()  # a fold opened or closed: row numbers moved
    change_clicked = Signal(int)  # a click on a changed row made that change current

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("CompareCanvas")  # its focus ring in resources/style.qss
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Always on: a bar that comes and goes would change the width, and so every wrap.
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.viewport().setMouseTracking(True)
        self.viewport().setBackgroundRole(QPalette.ColorRole.Base)
        self.viewport().setAutoFillBackground(True)
        self._lines: tuple[list[str], list[str]] = ([], [])
        self._lengths: tuple[list[int], list[int]] = ([], [])
        self._exact: tuple[dict[int, int], dict[int, int]] = ({}, {})
        self._layouts: dict[str, QTextLayout] = {}
        self.words = WordMarks(self._lines)
        self._labels = paint.Labels(self.font())
        self._top_row = 0
        self._top_line = 0
        self._current = -1
        self._width = -1
        self._cols = paint.columns_for(0, self.fontMetrics(), 0)
        self._rows = RowHeights(RowPlan(build_diff("", "")), self._lengths, self._exact, 1)
        self._screen_full = True  # every row on screen laid out (see ``screen_ready``)
        self._work = QTimer(self)  # the next slice of layout and estimating
        self._work.setSingleShot(True)
        self._work.setInterval(0)
        self._work.timeout.connect(self.on_work)
        self.verticalScrollBar().valueChanged.connect(self.on_scrolled)

    # ---------------------------------------------------------------- feeding

    @property
    def plan(self) -> RowPlan:
        return self._rows.plan

    @property
    def row_heights(self) -> list[int]:
        """Each row's height in text lines: exact once laid out, estimated before. Rows not
        estimated yet are missing: see ``is_settled``."""
        return self._rows.heights

    @property
    def laid_out_lines(self) -> int:
        """Lines of either side laid out so far (how lazy the drawing has been)."""
        return len(self._exact[0]) + len(self._exact[1])

    def is_settled(self) -> bool:
        """True once every row is estimated and every row on screen laid out."""
        return not self._work.isActive()

    def screen_ready(self) -> bool:
        """True once every row on screen is laid out: what the operator waits for (the rest
        of the rows may still be being estimated, below the fold)."""
        return self._screen_full

    def set_model(self, model: SideBySide, old: str, new: str) -> None:
        """Show ``model``, built from ``old`` and ``new``. Only the first rows are measured
        here; the rest follow in slices between events."""
        # Plain split: line i here is line i of the model (a final "" past the end is unused).
        self._lines = (old.split("\n"), new.split("\n"))
        self._lengths = (list(map(len, self._lines[0])), list(map(len, self._lines[1])))
        self._exact = ({}, {})
        self._layouts.clear()
        self.words = WordMarks(self._lines)
        self._labels = paint.Labels(self.font())
        self._current = -1
        self._top_row = self._top_line = 0
        self._width = -1  # the number column depends on the line count: measure again
        self._replan(RowPlan(model, folding=self.plan.folding))

    def set_folding(self, folding: bool) -> None:
        """Fold every unchanged run again, or open them all."""
        if folding != self.plan.folding:
            self._top_row = self._top_line = 0
            self._replan(self.plan.with_folding(folding))
            self.rows_changed.emit()
            if self._current >= 0:
                self.go_to_change(self._current)

    def open_fold(self, row: int) -> None:
        """Open the fold at display row ``row``; rows below it move down."""
        plan = self.plan.with_fold_opened(row)
        if plan is not self.plan:
            self._replan(plan)
            self.rows_changed.emit()

    def _replan(self, plan: RowPlan) -> None:
        width = self.viewport().width()
        if width != self._width:
            self._width = width
            largest = max(len(self._lines[0]), len(self._lines[1]))
            self._cols = paint.columns_for(width, self.fontMetrics(), largest)
            self._exact = ({}, {})
            self._layouts.clear()
        chars = self._cols.text_width // max(1, self.fontMetrics().averageCharWidth())
        self._rows = RowHeights(plan, self._lengths, self._exact, chars)
        self._top_row = min(self._top_row, max(0, plan.row_count - 1))
        self._rows.advance(deadline=0)  # one step: enough rows to fill the view first
        self._fill_view(time.perf_counter() + SLICE)

    # ---------------------------------------------------------------- slices of work

    def on_work(self) -> None:
        """One slice: first the rows on screen, then estimates for the rest."""
        deadline = time.perf_counter() + SLICE
        if self._fill_view(deadline) and not self._rows.complete:
            self._rows.advance(deadline)
            self._sync_scrollbar()
        if not self._rows.complete:
            self._work.start()

    def _fill_view(self, deadline: float) -> bool:
        """Lay out rows from the top down until the view is full or ``deadline`` passes;
        True when the view is full. Asks for another slice when it is not."""
        view, rows, changed = self._view_lines(), self._rows, False
        row, used, done, made = self._top_row, -self._top_line, True, 0
        while row < len(rows.heights) and used < view:
            if not self._is_laid_out(row):
                if made and time.perf_counter() >= deadline:  # one row at least: progress
                    done = False
                    break
                made += 1
            changed |= rows.set_exact(row, self._lay_out_row(row))
            used += rows.heights[row]
            row += 1
        if used < view and row == len(rows.heights) and not rows.complete:
            done = False  # the view reaches past the rows estimated so far
        self._screen_full = done
        if changed:
            rows.refresh()
        if rows.heights:  # the top row may have become shorter than the line it was shown at
            self._top_line = min(self._top_line, rows.heights[self._top_row] - 1)
        self._sync_scrollbar()
        self.viewport().update()
        if not done or not rows.complete:
            self._work.start()
        return done

    def _is_laid_out(self, index: int) -> bool:
        row = self.plan.row(index)
        return all(
            line is None or display_line(self._lines[side][line]) in self._layouts
            for side, line in ((0, row.old_line), (1, row.new_line))
        )

    def _lay_out_row(self, index: int) -> int:
        row = self.plan.row(index)
        if row.kind == "fold":
            return 1
        self.words.marks(row)  # the word diff too, here in a slice rather than while painting
        counts = [1]
        for side, line in ((0, row.old_line), (1, row.new_line)):
            if line is not None:
                counts.append(self._layout(side, line).lineCount())
        return max(counts)

    def _layout(self, side: int, line: int) -> QTextLayout:
        text = display_line(self._lines[side][line])
        layout = self._layouts.get(text)
        if layout is None:
            if len(self._layouts) >= LAYOUT_CACHE:
                self._layouts.clear()  # line counts stay in _exact; layouts are made again
            layout = paint.lay_out(text, self.font(), self._cols.text_width, self._line_height())
            self._layouts[text] = layout
        self._exact[side][line] = max(1, layout.lineCount())
        return layout

    def _ready_layout(self, side: int, line: int | None) -> QTextLayout | None:
        """The line's layout if it is made; painting never lays out (slices do)."""
        if line is None:
            return None
        return self._layouts.get(display_line(self._lines[side][line]))

    # ---------------------------------------------------------------- scrolling

    def _view_lines(self) -> int:
        return max(1, self.viewport().height() // self._line_height())

    def _line_height(self) -> int:
        return max(1, self.fontMetrics().lineSpacing())

    def _value(self) -> int:
        return self._rows.tops[self._top_row] + self._top_line if self._rows.heights else 0

    def _sync_scrollbar(self) -> None:
        bar, view = self.verticalScrollBar(), self._view_lines()
        bar.blockSignals(True)
        bar.setRange(0, max(0, self._rows.total - view))
        bar.setPageStep(view)
        bar.setSingleStep(1)
        bar.setValue(self._value())
        bar.blockSignals(False)
        if self._rows.heights and bar.value() != self._value():
            self._top_row, self._top_line = self._rows.row_at(bar.value())  # range clamped it

    def on_scrolled(self, value: int) -> None:
        if self.plan.row_count:
            self._top_row, self._top_line = self._rows.row_at(value)
            self._fill_view(time.perf_counter() + SLICE)

    def scroll_to_row(self, row: int, lines_above: int = 0) -> None:
        """Scroll so display row ``row`` starts ``lines_above`` lines below the top."""
        if 0 <= row < self.plan.row_count:
            line = max(0, self._rows.top(row) - lines_above)
            self._top_row, self._top_line = self._rows.row_at(line)
            self._fill_view(time.perf_counter() + SLICE)

    @property
    def top_row(self) -> int:
        return self._top_row

    def visible_rows(self) -> range:
        heights, view = self._rows.heights, self._view_lines()
        row, used = self._top_row, -self._top_line
        while row < len(heights) and used < view:
            used += heights[row]
            row += 1
        return range(self._top_row, row)

    def row_rect(self, row: int) -> QRect:
        """Where display row ``row`` is in the viewport (it may lie outside)."""
        line_height = self._line_height()
        top = (self._rows.top(row) - self._value()) * line_height
        return QRect(0, top, self.viewport().width(), self._rows.heights[row] * line_height)

    def row_at(self, y: int) -> int | None:
        if not self.plan.row_count:
            return None
        row, _line = self._rows.row_at(self._value() + y // self._line_height())
        return row

    # ---------------------------------------------------------------- changes

    @property
    def current_change(self) -> int:
        return self._current

    def go_to_change(self, index: int) -> None:
        """Make change ``index`` current and bring it a quarter of the way down the view."""
        self._current = index
        if 0 <= index < self.plan.model.change_count:
            self.scroll_to_row(self.plan.change_rows(index).start, self._view_lines() // 4)
        self.viewport().update()

    # ---------------------------------------------------------------- events

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._replan(self.plan)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.modifiers() & Qt.KeyboardModifier.AltModifier:
            event.ignore()  # Alt+arrows move between changes: the compare view's keys
            return
        action = _KEY_ACTIONS.get(Qt.Key(event.key()))
        if action is None:
            super().keyPressEvent(event)
            return
        self.verticalScrollBar().triggerAction(action)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        row = self.row_at(int(event.position().y()))
        on_fold = row is not None and self.plan.row(row).kind == "fold"
        if event.button() == Qt.MouseButton.LeftButton and row is not None and on_fold:
            self.open_fold(row)
            return
        change = self.plan.row(row).change if row is not None else -1
        if event.button() == Qt.MouseButton.LeftButton and change >= 0:
            self._current = change  # no scrolling: the operator is pointing at it
            self.viewport().update()
            self.change_clicked.emit(change)
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        row = self.row_at(int(event.position().y()))
        on_fold = row is not None and self.plan.row(row).kind == "fold"
        cursor = Qt.CursorShape.PointingHandCursor if on_fold else Qt.CursorShape.ArrowCursor
        self.viewport().setCursor(cursor)
        super().mouseMoveEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self.viewport())
        painter.setFont(self.font())
        painter.fillRect(
            QRect(self._cols.gutter_x, 0, paint.GUTTER, self.viewport().height()),
            self.palette().color(QPalette.ColorRole.Window),
        )
        rows = self.visible_rows()
        for index in rows:
            self._paint_row(painter, index)
        self._paint_links(painter, rows)
        painter.end()

    def _paint_row(self, painter: QPainter, index: int) -> None:
        row = self.plan.row(index)
        rect = self.row_rect(index)
        if row.kind == "fold":
            paint.paint_fold(painter, self._cols, row, rect.top(), rect.height())
            return
        marks = self.words.marks(row, make=False)
        area = (float(rect.top()), float(rect.height()))
        for side, line in ((0, row.old_line), (1, row.new_line)):
            layout = self._ready_layout(side, line)
            paint.paint_side(
                painter, self._cols, side, row, area, layout, marks[side], self._labels
            )

    def _paint_links(self, painter: QPainter, rows: range) -> None:
        if not rows:
            return
        plan, line_height, value = self.plan, self._line_height(), self._value()

        def y(row: int) -> float:
            return float((self._rows.tops[row] - value) * line_height)

        for run_index in range(plan.run_index(rows.start), plan.run_index(rows.stop - 1) + 1):
            run = plan.runs[run_index]
            if run.kind != "change" or plan.starts[run_index] + run.length >= len(self._rows.tops):
                continue
            chunk = plan.model.chunks[run.chunk]
            start = plan.starts[run_index]
            old_end = start + chunk.old_end - chunk.old_start
            new_end = start + chunk.new_end - chunk.new_start
            current = plan.row(start).change == self._current
            left, right = (y(start), y(old_end)), (y(start), y(new_end))
            paint.paint_connector(painter, self._cols, chunk.tag, left, right, current)
            if current:
                self._paint_current(painter, y(start), y(start + chunk.rows))

    def _paint_current(self, painter: QPainter, top: float, bottom: float) -> None:
        painter.setPen(QPen(paint.diff_colours().current, 2))
        painter.setBrush(QColor(0, 0, 0, 0))
        for side in (0, 1):
            x = self._cols.side_x(side)
            corner = QPoint(x + self._cols.side_width - 2, int(bottom) - 1)
            painter.drawRect(QRect(QPoint(x + 1, int(top) + 1), corner))
