"""View › Audit: every save, restore, proposal decision, note edit and change set, filterable
by agent, guild and time, with CSV export."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.core.audit_csv import AUDIT_COLUMNS, audit_cells
from app.core.fleet_models import AuditEvent
from app.desk.fleet_desk import FleetAudit
from widgets.common.plain_text import plain_label

Index = QModelIndex | QPersistentModelIndex


class AuditModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.events: list[AuditEvent] = []

    def set_events(self, events: list[AuditEvent]) -> None:
        self.beginResetModel()
        self.events = list(events)
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.events)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(AUDIT_COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return AUDIT_COLUMNS[section].capitalize()
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or role != Qt.ItemDataRole.DisplayRole:
            return None
        return audit_cells(self.events[index.row()])[index.column()]


class AuditDialog(QDialog):
    """Observes a ``FleetAudit`` of its own; ``export_to(path)`` writes the rows shown."""

    def __init__(self, audit: FleetAudit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("auditDialog")
        self.setWindowTitle("Audit")
        self.resize(980, 600)
        self._audit = audit
        audit.setParent(self)
        self.agent = QLineEdit(self)
        self.agent.setPlaceholderText("Agent id")
        self.agent.setAccessibleName("Agent id")
        self.guild = QLineEdit(self)
        self.guild.setPlaceholderText("Guild id")
        self.guild.setAccessibleName("Guild id")
        self.since = QLineEdit(self)
        self.since.setPlaceholderText("Since (2026-01-31T00:00:00Z)")
        self.since.setAccessibleName("Since")
        self.refresh_button = QPushButton("&Show", self)
        self.export_button = QPushButton("&Export CSV…", self)
        self.export_button.setEnabled(False)
        self.model = AuditModel(self)
        self.table = QTableView(self)
        self.table.setObjectName("auditTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.status = plain_label("Loading the audit…", self)
        filters = QHBoxLayout()
        for field in (self.agent, self.guild, self.since):
            filters.addWidget(field)
            field.returnPressed.connect(self.on_refresh)
        filters.addWidget(self.refresh_button)
        layout = QVBoxLayout(self)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.status, 1)
        bottom.addWidget(self.export_button)
        layout.addLayout(bottom)
        self.refresh_button.clicked.connect(self.on_refresh)
        self.export_button.clicked.connect(self.on_export)
        audit.loaded.connect(self.show_events)
        audit.failed.connect(self.status.setText)
        audit.exported.connect(self.status.setText)

    def on_refresh(self) -> None:
        self.status.setText("Loading the audit…")
        self._audit.load(
            agent_id=self.agent.text().strip() or None,
            guild_id=self.guild.text().strip() or None,
            since=self.since.text().strip() or None,
        )

    def show_events(self, events: list[AuditEvent]) -> None:
        self.model.set_events(events)
        self.status.setText(f"{len(events):,} changes, newest first.")
        self.export_button.setEnabled(bool(events))

    def on_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export the audit", "audit.csv", "CSV (*.csv)")
        if path:
            self.export_to(Path(path))

    def export_to(self, path: Path) -> None:
        """Writes the rows shown as CSV (on the disk lane); the outcome is said in the status."""
        self.status.setText(f"Exporting to {path}…")
        self._audit.export(path, list(self.model.events))
