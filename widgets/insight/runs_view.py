"""The Runs tab: start a run, list the agent's runs, open one's System view or compare."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QListView,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from widgets.common.two_line_delegate import TwoLineDelegate
from widgets.insight.run_list_model import DETAIL_ROLE, TITLE_ROLE, RunListModel, RunRow


class RunsView(QWidget):
    """The runs, newest first. Its buttons ask; ``InsightFlow`` does the work.

    ``open_requested(run_id)``: the System view; ``changes_requested(run_id)``: that run's
    Task beside what a run would get now; ``compare_requested(old_id, new_id)``: two runs.
    """

    start_requested = Signal()
    open_requested = Signal(str)
    changes_requested = Signal(str)
    compare_requested = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("RunsView")
        self.model = RunListModel(self)
        self.list = QListView()
        self.list.setAccessibleName("Runs")
        self.list.setModel(self.model)
        self.list.setItemDelegate(TwoLineDelegate(TITLE_ROLE, DETAIL_ROLE, self.list))
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.activated.connect(self._on_activated)
        self.list.selectionModel().selectionChanged.connect(lambda *_: self._update_buttons())
        self.notice_label = QLabel("")
        self.notice_label.setObjectName("hint")
        self.notice_label.setTextFormat(Qt.TextFormat.PlainText)
        self.notice_label.setWordWrap(True)
        self.notice_label.hide()
        self.start_button = QPushButton("Start a run")
        self.start_button.setToolTip(
            "Start a run of the saved Task (View › Start a run…, Ctrl+Alt+R)"
        )
        self.open_button = QPushButton("System view")
        self.changes_button = QPushButton("Changed since")
        self.changes_button.setToolTip(
            "This run's Task beside what a run would get now (select two runs to compare them)"
        )
        self.start_button.clicked.connect(self.start_requested)
        self.open_button.clicked.connect(self._on_open)
        self.changes_button.clicked.connect(self._on_changes)
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button)
        buttons.addStretch(1)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.changes_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(buttons)
        layout.addWidget(self.notice_label)
        layout.addWidget(self.list, 1)
        self._update_buttons()

    def set_runs(self, rows: list[RunRow], notice: str = "") -> None:
        self.model.set_rows(rows)
        self.set_notice(notice)
        self._update_buttons()

    def add_run(self, row: RunRow) -> None:
        self.model.add_first(row)
        self.list.setCurrentIndex(self.model.index(0))
        self._update_buttons()

    def set_notice(self, notice: str) -> None:
        self.notice_label.setText(notice)
        self.notice_label.setVisible(bool(notice))

    def selected_ids(self) -> list[str]:
        rows = sorted(i.row() for i in self.list.selectionModel().selectedRows())
        return [self.model.rows[r].id for r in rows]

    def select_rows(self, *rows: int) -> None:
        self.list.clearSelection()
        for row in rows:
            self.list.selectionModel().select(
                self.model.index(row), self.list.selectionModel().SelectionFlag.Select
            )
        self._update_buttons()

    def _on_open(self) -> None:
        ids = self.selected_ids()
        if ids:
            self.open_requested.emit(ids[0])

    def _on_changes(self) -> None:
        ids = self.selected_ids()
        if len(ids) >= 2:
            self.compare_requested.emit(ids[-1], ids[0])  # rows are newest first
        elif ids:
            self.changes_requested.emit(ids[0])

    def _on_activated(self, index: QModelIndex) -> None:
        if 0 <= index.row() < len(self.model.rows):
            self.open_requested.emit(self.model.rows[index.row()].id)

    def _update_buttons(self) -> None:
        count = len(self.selected_ids())
        self.open_button.setEnabled(count >= 1)
        self.changes_button.setEnabled(count >= 1)
        self.changes_button.setText("Compare the two" if count >= 2 else "Changed since")
