"""A horizontal bar chart of byte counts: one row per note or section, largest share widest."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFocusEvent,
    QFontMetrics,
    QHelpEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from widgets.common.plain_text import inert_tooltip
from widgets.common.theme import current_theme
from widgets.preview.size_meters import format_kb

ROW_HEIGHT = 24
LABEL_SHARE = 0.45  # of the width, for the labels; the bars take the rest
FIGURES_WIDTH = 190


@dataclass(frozen=True, slots=True)
class Bar:
    """One row: ``label`` (a path or a heading), its ``bytes``, and its ``share`` of the
    scale (0 to 1). ``marked`` rows are drawn in the warning colour (the notes to cut)."""

    label: str
    bytes: int
    share: float
    note: str = ""
    marked: bool = False


class BarChart(QWidget):
    """Draws ``bars`` top to bottom; ``rows()`` gives the same as text for screen readers.

    It takes focus: Up/Down (Home/End) move a current row, ringed as focus is elsewhere, and
    Return or a click ``activated(row)`` it. The accessible description is the current
    row's text once there is one, all rows before."""

    activated = Signal(int)
    current_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bars: tuple[Bar, ...] = ()
        self.current = -1
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_bars(self, bars: tuple[Bar, ...]) -> None:
        self.bars = bars
        self.current = -1
        self.setAccessibleDescription("; ".join(self.rows()))
        self.updateGeometry()
        self.update()

    def set_current(self, row: int) -> None:
        if not self.bars:
            return
        row = max(0, min(row, len(self.bars) - 1))
        if row != self.current:
            self.current = row
            self.setAccessibleDescription(self.rows()[row])
            self.update()
            self.current_changed.emit(row)

    def focusInEvent(self, event: QFocusEvent) -> None:
        if self.current < 0:
            self.set_current(0)
        self.update()
        super().focusInEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        self.update()
        super().focusOutEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        moves = {
            Qt.Key.Key_Up: self.current - 1,
            Qt.Key.Key_Down: self.current + 1,
            Qt.Key.Key_Home: 0,
            Qt.Key.Key_End: len(self.bars) - 1,
        }
        if key in moves and self.bars:
            self.set_current(moves[Qt.Key(key)])
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space) and (
            0 <= self.current < len(self.bars)
        ):
            self.activated.emit(self.current)
        else:
            super().keyPressEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        row = int(event.position().y()) // ROW_HEIGHT
        if 0 <= row < len(self.bars):
            self.setFocus(Qt.FocusReason.MouseFocusReason)
            self.set_current(row)
            self.activated.emit(row)

    def rows(self) -> list[str]:
        return [
            f"{b.label}: {b.bytes:,} bytes, {b.share:.0%}" + (f", {b.note}" if b.note else "")
            for b in self.bars
        ]

    def label_width(self) -> int:
        return int((self.width() - FIGURES_WIDTH) * LABEL_SHARE)

    def shown_label(self, row: int) -> str:
        """Row ``row``'s label as drawn: a long path is cut in the middle ("org/…/x.md")."""
        metrics = QFontMetrics(self.font())
        return metrics.elidedText(
            self.bars[row].label, Qt.TextElideMode.ElideMiddle, self.label_width()
        )

    def tooltip_at(self, y: int) -> str:
        """The row under ``y`` in full: the whole path (the label may be cut), its figures."""
        row = y // ROW_HEIGHT
        return self.rows()[row] if 0 <= row < len(self.bars) else ""

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            text = self.tooltip_at(event.pos().y())
            if text:
                QToolTip.showText(event.globalPos(), inert_tooltip(text), self)  # paths as written
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def sizeHint(self) -> QSize:
        return QSize(560, max(1, len(self.bars)) * ROW_HEIGHT + 4)

    def minimumSizeHint(self) -> QSize:
        return QSize(320, self.sizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        palette = self.palette()
        width = self.width()
        label_width = self.label_width()
        bar_left = label_width + 8
        bar_room = max(10, width - FIGURES_WIDTH - bar_left - 8)
        normal = palette.color(QPalette.ColorRole.Highlight)
        marked = QColor("#c0392b")
        text = palette.color(QPalette.ColorRole.WindowText)
        for row, bar in enumerate(self.bars):
            top = row * ROW_HEIGHT + 2
            label = self.shown_label(row)
            painter.setPen(text)
            painter.drawText(
                QRectF(0, top, label_width, ROW_HEIGHT),
                int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft),
                label,
            )
            fill = max(1.0, bar_room * min(1.0, bar.share))
            painter.fillRect(
                QRectF(bar_left, top + 5, fill, ROW_HEIGHT - 10), marked if bar.marked else normal
            )
            figures = f"{format_kb(bar.bytes)}  {bar.share:.0%}" + (
                f"  {bar.note}" if bar.note else ""
            )
            painter.drawText(
                QRectF(bar_left + bar_room + 8, top, FIGURES_WIDTH, ROW_HEIGHT),
                int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft),
                figures,
            )
        if self.hasFocus():
            # The ring: 2 px in the theme's focus colour around the current row, the same
            # ring every other control draws (resources/style.qss).
            pen = QPen(QColor(current_theme().focus))
            pen.setWidth(2)
            painter.setPen(pen)
            row = max(self.current, 0)
            painter.drawRect(QRectF(1, row * ROW_HEIGHT + 1, width - 2, ROW_HEIGHT))
        painter.end()
