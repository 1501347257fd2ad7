"""A horizontal bar chart of byte counts: one row per note or section, largest share widest."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

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
    """Draws ``bars`` top to bottom; ``rows()`` gives the same as text for screen readers."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bars: tuple[Bar, ...] = ()
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_bars(self, bars: tuple[Bar, ...]) -> None:
        self.bars = bars
        self.setAccessibleDescription("; ".join(self.rows()))
        self.updateGeometry()
        self.update()

    def rows(self) -> list[str]:
        return [
            f"{b.label}: {b.bytes:,} bytes, {b.share:.0%}" + (f", {b.note}" if b.note else "")
            for b in self.bars
        ]

    def sizeHint(self) -> QSize:
        return QSize(560, max(1, len(self.bars)) * ROW_HEIGHT + 4)

    def minimumSizeHint(self) -> QSize:
        return QSize(320, self.sizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        palette = self.palette()
        metrics = QFontMetrics(self.font())
        width = self.width()
        label_width = int((width - FIGURES_WIDTH) * LABEL_SHARE)
        bar_left = label_width + 8
        bar_room = max(10, width - FIGURES_WIDTH - bar_left - 8)
        normal = palette.color(QPalette.ColorRole.Highlight)
        marked = QColor("#c0392b")
        text = palette.color(QPalette.ColorRole.WindowText)
        for row, bar in enumerate(self.bars):
            top = row * ROW_HEIGHT + 2
            label = metrics.elidedText(bar.label, Qt.TextElideMode.ElideMiddle, label_width)
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
        painter.end()
