"""The budget breakdown: what eats the 64 KB of embedded notes, and the Task's 256 KB."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.core.budget import BudgetBreakdown
from app.core.task_outline import TaskSize
from app.core.wording import counted
from widgets.insight.bar_chart import Bar, BarChart
from widgets.preview.size_meters import format_kb


def budget_headline(budget: BudgetBreakdown) -> str:
    """The total against the budget, and when over, what to cut to get under it."""
    head = (
        f"Embedded notes: {budget.total:,} of {budget.budget:,} bytes "
        f"({format_kb(budget.total)} of {format_kb(budget.budget)}), "
        f"{counted(len(budget.notes), 'note')}."
    )
    if not budget.over_budget:
        return head + f" {budget.budget - budget.total:,} bytes to spare."
    cut = ", ".join(budget.removal)
    return (
        head + f" Over by {budget.excess:,} bytes: a run is refused. Removing the largest "
        f"({cut}) gets it to {budget.total_after_removal:,} bytes."
    )


def note_bars(budget: BudgetBreakdown) -> tuple[Bar, ...]:
    cut = set(budget.removal)
    return tuple(
        Bar(
            n.path,
            n.bytes,
            n.share,
            f"hop {n.hop}" + (" · cut" if n.path in cut else ""),
            n.path in cut,
        )
        for n in budget.notes
    )


def section_bars(sizes: TaskSize) -> tuple[Bar, ...]:
    return tuple(
        Bar(s.title or "(before the first heading)", s.bytes, s.share, f"line {s.line}")
        for s in sizes.largest_first()
    )


class BudgetDialog(QDialog):
    """Two charts, largest first: each inlined note's bytes (exactly as the budget counts
    them) with its hop and share; the Task's own sections by heading. Activating a section
    (Return or a click) asks for its line (``line_requested``), a note for its path."""

    line_requested = Signal(int)
    note_requested = Signal(str)

    def __init__(
        self, budget: BudgetBreakdown, sizes: TaskSize, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Budget breakdown")
        self.setObjectName("BudgetDialog")
        self.resize(820, 560)
        self.budget = budget
        self.sizes = sizes
        self.headline = QLabel(budget_headline(budget))
        self.notes_chart = BarChart()
        self.notes_chart.setAccessibleName("Embedded notes by size")
        self.notes_chart.set_bars(note_bars(budget))
        self.task_headline = QLabel(
            f"Task text: {sizes.total:,} of {sizes.limit:,} bytes "
            f"({format_kb(sizes.total)} of {format_kb(sizes.limit)}), by section."
        )
        self.sections_chart = BarChart()
        self.sections_chart.setAccessibleName("Task sections by size")
        self.sections_chart.set_bars(section_bars(sizes))
        inner = QWidget()
        column = QVBoxLayout(inner)
        for widget in (self.headline, self.notes_chart, self.task_headline, self.sections_chart):
            if isinstance(widget, QLabel):
                widget.setTextFormat(Qt.TextFormat.PlainText)  # note paths
                widget.setWordWrap(True)
            column.addWidget(widget)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the charts take focus, with a ring
        scroll.setWidgetResizable(True)
        scroll.setWidget(inner)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.buttons)
        self.notes_chart.activated.connect(self._on_note_activated)
        self.sections_chart.activated.connect(self._on_section_activated)
        first = self.notes_chart if budget.notes else self.sections_chart
        first.setFocus(Qt.FocusReason.OtherFocusReason)

    def _on_note_activated(self, row: int) -> None:
        self.note_requested.emit(self.budget.notes[row].path)

    def _on_section_activated(self, row: int) -> None:
        self.line_requested.emit(self.sizes.largest_first()[row].line)
