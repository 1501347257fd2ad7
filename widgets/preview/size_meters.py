"""Compact bars for the Task's size (of 256 KB) and its embedded note text (of 64 KB)."""

from __future__ import annotations

from typing import Literal

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QGridLayout, QLabel, QProgressBar, QWidget

from app.core.limits import EMBED_BUDGET_BYTES, TASK_MAX_BYTES
from app.core.wording import format_kb

__all__ = ["NEAR_FRACTION", "SizeMeter", "format_kb", "meter_level"]

MeterLevel = Literal["ok", "near", "over"]

NEAR_FRACTION = 0.9
"""From here on the bar turns to the warning colour, before the limit bites."""


def meter_level(size: int, limit: int) -> MeterLevel:
    if size > limit:
        return "over"
    return "near" if size >= NEAR_FRACTION * limit else "ok"


class SizeMeter(QWidget):
    """One labelled bar with figures; its ``level`` property drives the stylesheet's colour.
    A click asks for its breakdown (``clicked``)."""

    clicked = Signal()

    def __init__(self, title: str, limit: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self.limit = limit
        self.shown_bytes = 0
        self.title_label = QLabel(title)
        self.bar = QProgressBar()
        self.bar.setObjectName("SizeMeterBar")
        self.bar.setTextVisible(False)
        self.bar.setRange(0, limit)
        self.bar.setFixedHeight(6)
        self.bar.setAccessibleName(title)
        self.figures_label = QLabel("")
        self.figures_label.setObjectName("hint")
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setVerticalSpacing(2)
        grid.addWidget(self.title_label, 0, 0)
        grid.addWidget(self.figures_label, 0, 1)
        grid.addWidget(self.bar, 1, 0, 1, 2)
        grid.setColumnStretch(0, 1)
        self.set_size(0)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit()
        super().mousePressEvent(event)

    def set_size(self, size: int | None, *, partial: bool = False) -> None:
        """UTF-8 bytes; None: not counted yet (another agent's Task is loading), shown as no
        figure rather than a stale one. ``partial``: the figure leaves out notes the agent
        reads and the viewer may not, so it says so rather than pass for the run's."""
        self.shown_bytes = size or 0
        self.bar.setValue(min(self.shown_bytes, self.limit))
        level = self.level()
        if size is None:
            figures = f"… of {format_kb(self.limit)}"
            self.setAccessibleName(f"{self.title}: not counted yet")
            self.setToolTip(f"Not counted yet, of {self.limit:,} bytes.")
        else:
            figures = f"{format_kb(size)} of {format_kb(self.limit)}"
            if level == "over":
                figures += " — over the limit"
            tip = f"{size:,} of {self.limit:,} bytes. Click for the breakdown."
            if partial:
                figures += " + notes you can't see"
                tip = (
                    f"{size:,} bytes of the notes you can read, of {self.limit:,}. The run also "
                    "embeds notes the agent reads and you can't see, so it embeds more."
                )
            self.setAccessibleName(f"{self.title}: {figures}")
            self.setToolTip(tip)
        self.figures_label.setText(figures)
        self.bar.setAccessibleDescription(figures)
        for widget in (self, self.bar, self.figures_label):
            if widget.property("level") != level:
                widget.setProperty("level", level)
                widget.style().unpolish(widget)
                widget.style().polish(widget)

    def level(self) -> MeterLevel:
        return meter_level(self.shown_bytes, self.limit)

    def figures(self) -> str:
        return self.figures_label.text()


class SizeMeters(QWidget):
    """The Task's bytes and the embedded note text, side by side."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("SizeMeters")
        self.task_meter = SizeMeter("Task size", TASK_MAX_BYTES)
        self.embeds_meter = SizeMeter("Embedded notes", EMBED_BUDGET_BYTES)
        grid = QGridLayout(self)
        grid.setContentsMargins(6, 2, 6, 2)
        grid.setHorizontalSpacing(16)
        grid.addWidget(self.task_meter, 0, 0)
        grid.addWidget(self.embeds_meter, 0, 1)

    def set_unknown(self) -> None:
        """Another agent is opening: both figures wait for its Task and its preview."""
        self.task_meter.set_size(None)
        self.embeds_meter.set_size(None)

    def set_sizes(
        self, task_bytes: int, embedded_bytes: int | None = None, *, partial: bool = False
    ) -> None:
        """UTF-8 byte counts; ``embedded_bytes`` None keeps the last figure (expansion pending);
        ``partial``: it leaves out notes the agent reads and the viewer may not."""
        self.task_meter.set_size(task_bytes)
        if embedded_bytes is not None:
            self.embeds_meter.set_size(embedded_bytes, partial=partial)
