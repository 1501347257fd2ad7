"""An agent's runs as a list model, newest first: when, by whom, Task version, note versions."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from app.desk.run_controller import RunInfo, RunSummary, TaskSource
from widgets.common.plain_text import inert_tooltip
from widgets.common.provenance import exact_time, relative_time

TITLE_ROLE = Qt.ItemDataRole.UserRole + 1
DETAIL_ROLE = Qt.ItemDataRole.UserRole + 2
RUN_ID_ROLE = Qt.ItemDataRole.UserRole + 3
AnyIndex = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True, slots=True)
class RunRow:
    id: str
    created_at: str
    created_by: str
    source: TaskSource

    @classmethod
    def of(cls, run: RunSummary | RunInfo, by: str = "") -> RunRow:
        who = run.created_by_name if isinstance(run, RunSummary) else by
        return cls(run.id, run.created_at, who, run.task_source)

    def title(self) -> str:
        when = relative_time(self.created_at) if self.created_at else "time not recorded"
        return f"{when}{f' by {self.created_by}' if self.created_by else ''}"

    def detail(self) -> str:
        notes = ", ".join(
            f"{n.display_path.rsplit('/', 1)[-1]} v{n.version}" for n in self.source.notes
        )
        return f"Task v{self.source.version}" + (f" · {notes}" if notes else " · no notes")


class RunListModel(QAbstractListModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows: list[RunRow] = []

    def set_rows(self, rows: list[RunRow]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def add_first(self, row: RunRow) -> None:
        self.beginInsertRows(QModelIndex(), 0, 0)
        self.rows.insert(0, row)
        self.endInsertRows()

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self.rows)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        row = self.rows[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return f"{row.title()} — {row.detail()}"
        if role == TITLE_ROLE:
            return row.title()
        if role == DETAIL_ROLE:
            return row.detail()
        if role == Qt.ItemDataRole.ToolTipRole:
            return inert_tooltip(f"{row.id}, {exact_time(row.created_at)}")
        if role == RUN_ID_ROLE:
            return row.id
        return None
