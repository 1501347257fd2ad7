"""How one compare row and one connector are drawn: colours, columns, markers, wrapped text."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QPainter,
    QPainterPath,
    QPen,
    QStaticText,
    QTextCharFormat,
    QTextLayout,
    QTextOption,
    QTransform,
)

from app.core.compare_rows import Row
from widgets.common.theme import LIGHT, Theme, current_theme


@dataclass(frozen=True)
class DiffColours:
    """The compare view's colours in one look (light or dark)."""

    old_line: QColor
    new_line: QColor
    old_word: QColor
    new_word: QColor
    filler: QColor
    hatch: QBrush
    old_bar: QColor
    new_bar: QColor
    ink: QColor
    fold: QColor
    fold_edge: QColor
    muted: QColor
    number: QColor
    current: QColor
    # Connector fill and outline by what the change does: replaced, removed, added. The
    # fills are opaque (the tints over the gutter's grey): a translucent fill costs ten
    # times as much.
    link_fill: dict[str, QColor]
    link_line: dict[str, QColor]


@cache
def diff_colours_for(theme: Theme) -> DiffColours:
    c = theme.colour
    return DiffColours(
        old_line=c("diff_old_line"),
        new_line=c("diff_new_line"),
        old_word=c("diff_old_word"),
        new_word=c("diff_new_word"),
        filler=c("diff_filler"),
        hatch=QBrush(c("diff_hatch"), Qt.BrushStyle.BDiagPattern),
        old_bar=c("diff_old_bar"),
        new_bar=c("diff_new_bar"),
        ink=c("ink"),
        fold=c("diff_fold"),
        fold_edge=c("field_border"),
        muted=c("muted"),
        number=c("diff_number"),
        current=c("focus"),
        link_fill={
            "replace": c("diff_replace"),
            "delete": c("diff_delete"),
            "insert": c("diff_insert"),
        },
        link_line={
            "replace": c("diff_link_replace"),
            "delete": c("diff_link_delete"),
            "insert": c("diff_link_insert"),
        },
    )


def diff_colours() -> DiffColours:
    """The colours of the look shown now."""
    return diff_colours_for(current_theme())


# The light look's tints, by name (the tests read pixels against them).
OLD_LINE = diff_colours_for(LIGHT).old_line
NEW_LINE = diff_colours_for(LIGHT).new_line
OLD_WORD = diff_colours_for(LIGHT).old_word
NEW_WORD = diff_colours_for(LIGHT).new_word
FILLER = diff_colours_for(LIGHT).filler
OLD_BAR = diff_colours_for(LIGHT).old_bar
NEW_BAR = diff_colours_for(LIGHT).new_bar

GUTTER = 44  # the connectors' column between the two sides
PAD = 6  # space between columns
BAR = 3  # the change bar's width, left of the text


@dataclass(frozen=True, slots=True)
class Columns:
    """Where each part of a row goes, for one viewport width."""

    width: int
    side_width: int
    number_width: int
    marker_width: int

    def side_x(self, side: int) -> int:
        return 0 if side == 0 else self.side_width + GUTTER

    def text_x(self, side: int) -> int:
        return self.side_x(side) + self.number_width + self.marker_width + BAR + PAD

    @property
    def text_width(self) -> int:
        return max(40, self.side_width - self.number_width - self.marker_width - BAR - 2 * PAD)

    @property
    def gutter_x(self) -> int:
        return self.side_width


def columns_for(width: int, metrics: QFontMetrics, largest_line_number: int) -> Columns:
    digits = len(str(max(largest_line_number, 99)))
    return Columns(
        width=width,
        side_width=max(120, (width - GUTTER) // 2),
        number_width=metrics.horizontalAdvance("9" * digits) + PAD,
        marker_width=metrics.horizontalAdvance("−") + PAD,
    )


def lay_out(text: str, font: QFont, width: int, line_height: int) -> QTextLayout:
    """``text`` wrapped at word boundaries (or anywhere, for a long URL) to ``width``, each
    line exactly ``line_height`` apart so rows are whole multiples of it."""
    layout = QTextLayout(text, font)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    layout.setTextOption(option)
    layout.setCacheEnabled(True)
    layout.beginLayout()
    y = 0
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        line.setPosition(QPointF(0, y))
        y += line_height
    layout.endLayout()
    return layout


def word_marks(spans: tuple[tuple[int, int], ...], colour: QColor) -> list[QTextLayout.FormatRange]:
    """Changed words: a darker background and an underline, so colour is not the only cue."""
    marks = []
    for start, end in spans:
        fmt = QTextCharFormat()
        fmt.setBackground(colour)
        fmt.setFontUnderline(True)
        mark = QTextLayout.FormatRange()
        mark.start, mark.length, mark.format = start, end - start, fmt
        marks.append(mark)
    return marks


class Labels:
    """Line numbers and −/+ markers drawn from QStaticText prepared once: a plain drawText
    lays its text out on every paint, and a QStaticText per line number costs more to
    prepare than it saves, so numbers are drawn digit by digit (digits share one width)."""

    def __init__(self, font: QFont) -> None:
        self._font = font
        self._digits = [self._static(str(digit)) for digit in range(10)]
        self.digit_width = max(digit.size().width() for digit in self._digits)
        self.minus = self._static("−")
        self.plus = self._static("+")

    def _static(self, text: str) -> QStaticText:
        static = QStaticText(text)
        static.setTextFormat(Qt.TextFormat.PlainText)
        static.prepare(QTransform(), self._font)
        return static

    def draw_number(self, painter: QPainter, right: float, top: float, number: int) -> None:
        """``number`` right-aligned to ``right``."""
        for digit in reversed(str(number)):
            right -= self.digit_width
            painter.drawStaticText(QPointF(right, top), self._digits[ord(digit) - 48])


def paint_side(
    painter: QPainter,
    cols: Columns,
    side: int,
    row: Row,
    area: tuple[float, float],
    layout: QTextLayout | None,
    marks: list[QTextLayout.FormatRange],
    labels: Labels,
) -> None:
    """One side of a line row (``area``: its top and height): background, number, marker
    and change bar, then the text."""
    top, height = area
    line = row.old_line if side == 0 else row.new_line
    x = cols.side_x(side)
    changed = row.kind == "change"
    colours = diff_colours()
    if changed:
        rect = QRectF(x, top, cols.side_width, height)
        if line is None:  # a filler row: hatched, so "nothing here" reads without colour
            painter.fillRect(rect, colours.filler)
            painter.fillRect(rect, colours.hatch)
            return
        painter.fillRect(rect, colours.old_line if side == 0 else colours.new_line)
    if line is None:
        return
    painter.setPen(colours.number)
    labels.draw_number(painter, x + cols.number_width - PAD / 2, top, line + 1)
    if changed:
        marker_x = x + cols.number_width
        bar = colours.old_bar if side == 0 else colours.new_bar
        painter.setPen(bar)
        marker = labels.minus if side == 0 else labels.plus
        painter.drawStaticText(
            QPointF(marker_x + (cols.marker_width - marker.size().width()) / 2, top), marker
        )
        painter.fillRect(QRectF(marker_x + cols.marker_width, top, BAR, height), bar)
    if layout is not None:
        painter.setPen(colours.ink)
        layout.draw(painter, QPointF(cols.text_x(side), top), marks)


def paint_fold(painter: QPainter, cols: Columns, row: Row, top: float, height: float) -> None:
    """The row standing for a folded unchanged run, across both sides."""
    rect = QRectF(0, top, cols.width, height)
    colours = diff_colours()
    painter.fillRect(rect, colours.fold)
    painter.setPen(QPen(colours.fold_edge, 1, Qt.PenStyle.DashLine))
    painter.drawLine(QPointF(0, top + 0.5), QPointF(cols.width, top + 0.5))
    painter.drawLine(QPointF(0, top + height - 0.5), QPointF(cols.width, top + height - 0.5))
    painter.setPen(colours.muted)
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, fold_text(row.hidden))


def fold_text(hidden: int) -> str:
    lines = "1 unchanged line" if hidden == 1 else f"{hidden:,} unchanged lines"
    return f"⋯  {lines}  (click to show)"


def paint_connector(
    painter: QPainter,
    cols: Columns,
    tag: str,
    left: tuple[float, float],
    right: tuple[float, float],
    current: bool,
) -> None:
    """Meld's link between a change's lines on the left and their place on the right: a
    band curving from one side's span to the other's (a point where a side has no lines)."""
    x0, x2 = cols.gutter_x - 0.5, cols.gutter_x + GUTTER + 0.5
    x1 = (x0 + x2) / 2
    (l0, l1), (r0, r1) = left, right
    path = QPainterPath(QPointF(x0, l0))
    path.cubicTo(QPointF(x1, l0), QPointF(x1, r0), QPointF(x2, r0))
    path.lineTo(QPointF(x2, r1))
    path.cubicTo(QPointF(x1, r1), QPointF(x1, l1), QPointF(x0, l1))
    path.closeSubpath()
    colours = diff_colours()
    painter.fillPath(path, colours.link_fill.get(tag, colours.link_fill["replace"]))
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)  # the outline only: cheap
    painter.setPen(
        QPen(
            colours.current
            if current
            else colours.link_line.get(tag, colours.link_line["replace"]),
            2 if current else 1,
        )
    )
    painter.drawPath(path)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
