"""What an edit of a note does to every run that reaches it, before it is saved."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.core.note_uses import NoteImpact
from widgets.common.plain_text import plain_label
from widgets.notes.impact_model import ImpactModel, impact_summary

WORKING = "Working out what this edit does to every run that uses the note…"


class ImpactPanel(QWidget):
    """Summary line, a progress sign while the server works, then one row per agent.
    ``diff_requested(agent_id)``: show that agent's expanded Task before → after."""

    diff_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ImpactPanel")
        self.summary_label = plain_label("")
        self.summary_label.setObjectName("impactSummary")
        self.summary_label.setWordWrap(True)
        self.progress_label = plain_label(WORKING)
        self.progress_label.setObjectName("hint")
        self.progress_label.setVisible(False)
        self.model = ImpactModel()
        self.table = QTableView()
        self.table.setAccessibleName("What the edit does to each agent")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        # Widths from the first rows, not all thousand: a full pass stalls the window ~0.2 s.
        self.table.horizontalHeader().setResizeContentsPrecision(40)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.diff_button = QPushButton("Show the expanded Task's change")
        self.diff_button.setAccessibleName("Show the expanded Task's change")
        self.diff_button.setEnabled(False)
        self.diff_button.clicked.connect(self._on_diff)
        self.table.selectionModel().selectionChanged.connect(
            lambda *_: self.diff_button.setEnabled(self.selected_agent() is not None)
        )
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.diff_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.progress_label)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        self.rows: list[NoteImpact] = []

    def show_working(self) -> None:
        self.progress_label.setVisible(True)

    def show_rows(self, rows: list[NoteImpact]) -> None:
        self.rows = rows
        self.progress_label.setVisible(False)
        self.summary_label.setText(impact_summary(rows) if rows else "No run reaches this note.")
        first = not self.model.rows
        self.model.set_rows(rows)
        if first:  # widths once: the same columns hold the same kinds of figures after
            self.table.resizeColumnsToContents()

    def show_message(self, text: str) -> None:
        self.progress_label.setVisible(False)
        self.summary_label.setText(text)
        self.model.set_rows([])

    def selected_agent(self) -> str | None:
        picked = self.table.selectionModel().selectedRows()
        return self.model.rows[picked[0].row()].agent_id if picked else None

    def _on_diff(self) -> None:
        agent_id = self.selected_agent()
        if agent_id is not None:
            self.diff_requested.emit(agent_id)

    @property
    def needs_confirmation(self) -> bool:
        """An agent would go over the budget or gain a marker: Save asks once more."""
        return any(r.goes_over or r.gains_marker for r in self.rows)
