"""A change set's preview: every Task with its diff, budget before → after and shape check,
each row untickable; Apply sends the ticked ones as one change set, File as proposals sends
each as a proposal instead (the one way a member, who can't save Tasks, can use it)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.core.change_diff_text import diff_lines
from app.core.change_plan import PlanRow, ticked_changes
from app.core.fleet_models import ChangeSet
from app.desk.change_set_flow import ChangeSetFlow
from app.desk.proposal_filing import FiledProposals, ProposalFiling
from widgets.common.plain_text import plain_label

Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("Agent", "Task KB before → after", "Embedded KB before → after", "Shape", "Note")
REFUSED = QColor(220, 60, 60, 70)
MEMBERS_PROPOSE = (
    "Only operators save Tasks: File as proposals sends each Task's change for an operator "
    "to review."
)
FILED = "proposal filed"


def _kb(before: int, after: int) -> str:
    return f"{before / 1024:.1f} → {after / 1024:.1f}"


def _shape(row: PlanRow) -> str:
    if row.shape_after is None:
        return "checking…"
    added = [c for c in row.shape_after if c not in row.shape_before]
    gone = [c for c in row.shape_before if c not in row.shape_after]
    said = [f"+{c}" for c in added] + [f"−{c}" for c in gone]
    return " ".join(said) if said else ("in shape" if not row.shape_after else "unchanged")


class PlanModel(QAbstractTableModel):
    """The preview's rows; the first column's check box ticks a row in or out."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[PlanRow] = []
        self.said: dict[str, str] = {}  # agent id → what filing it as a proposal did

    def set_rows(self, rows: list[PlanRow]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.said = {}
        self.endResetModel()

    def mark_filed(self, outcome: FiledProposals) -> None:
        """Filed rows are unticked (another File sends only the rest), each row says why."""
        filed = {agent_id for agent_id, _ in outcome.filed}
        self.said.update({agent_id: FILED for agent_id in filed})
        self.said.update(dict(outcome.failed))
        self.rows = [replace(r, ticked=False) if r.agent_id in filed else r for r in self.rows]
        if self.rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, 4))

    def set_shapes(self, shapes: dict[str, tuple[str, ...]]) -> None:
        """The new texts' shape checks, come in after the rows."""
        if not self.rows:
            return
        self.rows = [
            replace(r, shape_after=shapes[r.agent_id])
            if r.shape_after is None and r.agent_id in shapes
            else r
            for r in self.rows
        ]
        self.dataChanged.emit(self.index(0, 3), self.index(len(self.rows) - 1, 3))

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() == 0 and self.rows[index.row()].can_go:
            return base | Qt.ItemFlag.ItemIsUserCheckable
        return base

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.CheckStateRole and column == 0:
            return Qt.CheckState.Checked if row.ticked else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.BackgroundRole and row.refusal:
            return QBrush(REFUSED)
        if role == Qt.ItemDataRole.ToolTipRole and row.refusal:
            return row.refusal
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        match column:
            case 0:
                return f"{row.name} ({row.agent_id})"
            case 1:
                return _kb(row.task_bytes_before, row.task_bytes_after)
            case 2:
                return _kb(row.embedded_before, row.embedded_after)
            case 3:
                return _shape(row)
            case _:
                return (
                    self.said.get(row.agent_id)
                    or row.refusal
                    or ("merged with a save made since" if row.rebased else "")
                )

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.CheckStateRole or index.column() != 0:
            return False
        row = self.rows[index.row()]
        if not row.can_go:
            return False
        ticked = Qt.CheckState(value) == Qt.CheckState.Checked
        self.rows[index.row()] = replace(row, ticked=ticked)
        self.dataChanged.emit(index, index, [Qt.ItemDataRole.CheckStateRole])
        return True


class ChangePreviewDialog(QDialog):
    """Observes a ``ChangeSetFlow`` of its own, and a ``ProposalFiling`` when proposals can
    be filed; ``applied_set`` holds what Apply saved. Without ``can_apply`` (a member) only
    File as proposals is offered."""

    def __init__(
        self,
        flow: ChangeSetFlow,
        title: str,
        parent: QWidget | None = None,
        *,
        filing: ProposalFiling | None = None,
        can_apply: bool = True,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("changeSetPreview")
        self.setWindowTitle("Change set preview")
        self.resize(980, 640)
        self.flow = flow
        flow.setParent(self)
        self.title = QLineEdit(title, self)
        self.title.setAccessibleName("Change set title")
        self.model = PlanModel(self)
        self.table = QTableView(self)
        self.table.setObjectName("changeSetRows")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setStretchLastSection(True)
        # Wide enough for each title: sizing to the contents would measure every row.
        for column, width in enumerate((240, 190, 230, 130)):
            self.table.setColumnWidth(column, width)
        self.table.verticalHeader().setVisible(False)
        self.diff = QPlainTextEdit(self)
        self.diff.setReadOnly(True)
        self.diff.setObjectName("changeSetDiff")
        self.diff.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self.table)
        splitter.addWidget(self.diff)
        self.status = plain_label("Building the preview…", self)
        self.status.setWordWrap(True)  # a move's outcome is a long sentence
        self.apply_button = QPushButton("&Apply", self)
        self.apply_button.setEnabled(False)
        self.revert_button = QPushButton("&Revert change set", self)
        self.revert_button.setEnabled(False)
        self.propose_button = QPushButton("File as &proposals", self)
        self.propose_button.setToolTip(
            "One proposal per ticked Task, for an operator to review and publish."
        )
        self.propose_button.setEnabled(False)
        self.propose_button.setVisible(filing is not None)
        self.filing = filing
        self.can_apply = can_apply
        self.apply_button.setVisible(can_apply)
        self.revert_button.setVisible(can_apply)
        self.close_button = QPushButton("Close", self)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.revert_button)
        buttons.addWidget(self.propose_button)
        buttons.addWidget(self.apply_button)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(splitter, 1)
        layout.addLayout(buttons)
        self.applied_set: ChangeSet | None = None
        self.table.selectionModel().currentRowChanged.connect(self._show_diff)
        self.model.dataChanged.connect(self._count)
        self.apply_button.clicked.connect(self.on_apply)
        self.revert_button.clicked.connect(self.on_revert)
        self.close_button.clicked.connect(self.reject)
        flow.preview_ready.connect(self.show_rows)
        flow.shapes_checked.connect(self.model.set_shapes)
        flow.rebased.connect(self.show_rebased)
        flow.applied.connect(self.show_applied)
        flow.reverted.connect(self.show_reverted)
        flow.failed.connect(self.show_failure)
        self.filed: FiledProposals | None = None
        if filing is not None:
            filing.setParent(self)
            self.propose_button.clicked.connect(self.on_file)
            filing.progress.connect(self.show_progress)
            filing.filed.connect(self.show_filed)
            filing.failed.connect(self.show_failure)
            self.finished.connect(self._stop_filing)

    def show_rows(self, rows: list[PlanRow]) -> None:
        self.model.set_rows(rows)
        self._count()
        if rows:
            self.table.selectRow(0)

    def _count(self, *_: object) -> None:
        rows = self.model.rows
        going = len(ticked_changes(rows))
        refused = sum(1 for r in rows if r.refusal)
        said = f"{going:,} of {len(rows):,} Tasks ticked"
        if refused:
            said += f" · {refused:,} left out (marked)"
        self.status.setText(said + "." + ("" if self.can_apply else " " + MEMBERS_PROPOSE))
        self._enable(going)

    def _enable(self, going: int) -> None:
        filing = self.filing is not None and self.filing.busy
        self.apply_button.setEnabled(
            going > 0 and self.applied_set is None and self.can_apply and not filing
        )
        self.propose_button.setEnabled(going > 0 and self.applied_set is None and not filing)

    def _show_diff(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            self.diff.clear()
            return
        row = self.model.rows[current.row()]
        text = "\n".join(f"{mark} {line}" for mark, line in diff_lines(row.before, row.after))
        self.diff.setPlainText((row.refusal + "\n\n" if row.refusal else "") + text)

    def on_file(self) -> None:
        if self.filing is None:
            return
        self.apply_button.setEnabled(False)
        self.propose_button.setEnabled(False)
        self.status.setText("Filing proposals…")
        self.filing.file(self.title.text(), self.model.rows)

    def show_progress(self, done: int, total: int) -> None:
        self.status.setText(f"Filing proposals: {done:,} of {total:,} sent…")

    def show_filed(self, outcome: FiledProposals) -> None:
        self.filed = outcome
        self.model.mark_filed(outcome)
        self.status.setText(outcome.sentence())
        self._enable(len(ticked_changes(self.model.rows)))

    def _stop_filing(self, *_: object) -> None:
        if self.filing is not None:
            self.filing.stop()

    def on_apply(self) -> None:
        self.apply_button.setEnabled(False)
        self.propose_button.setEnabled(False)
        self.status.setText("Applying…")
        self.flow.apply(self.title.text(), self.model.rows)

    def show_rebased(self, rows: list[PlanRow], said: str) -> None:
        self.show_rows(rows)
        self.status.setText(said)

    def show_applied(self, made: ChangeSet) -> None:
        self.applied_set = made
        self.apply_button.setEnabled(False)
        self.propose_button.setEnabled(False)
        self.revert_button.setEnabled(True)
        self.status.setText(f"Saved {len(made.versions):,} Tasks as “{made.title}”.")

    def on_revert(self) -> None:
        if self.applied_set is None:
            return
        self.revert_button.setEnabled(False)
        self.flow.revert(self.applied_set.id)

    def show_reverted(self, made: ChangeSet) -> None:
        said = f"Put back {len(made.versions):,} Tasks."
        if made.skipped:
            names = ", ".join(agent_id for agent_id, _ in made.skipped)
            said += f" Left alone, saved by someone since: {names}."
        self.status.setText(said)

    def show_failure(self, text: str) -> None:
        self.status.setText(text)
        self._count_buttons_only()

    def _count_buttons_only(self) -> None:
        self._enable(len(ticked_changes(self.model.rows)))
