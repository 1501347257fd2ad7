"""The local history of one agent (texts the operator replaced) as a list model, newest first."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from app.core.limits import utf8_len
from app.store.records import HistoryEntry
from widgets.common.icons import icon
from widgets.common.provenance import exact_time, relative_time
from widgets.preview.size_meters import format_kb

ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1
TEXT_ROLE = Qt.ItemDataRole.UserRole + 2
TITLE_ROLE = Qt.ItemDataRole.UserRole + 3
DETAIL_ROLE = Qt.ItemDataRole.UserRole + 4

AnyIndex = QModelIndex | QPersistentModelIndex
Clock = Callable[[], datetime]


def size_text(size: int) -> str:
    """``42 bytes``, ``1 byte``, or from 1 KB on as the size meters say it (``1.8 KB``)."""
    if size < 1024:
        return f"{size} byte{'' if size == 1 else 's'}"
    return format_kb(size)


def entry_detail(entry: HistoryEntry, now: datetime) -> str:
    """The row's second line: ``3 min ago · from v4 · 1.2 KB``."""
    parts = [relative_time(entry.created_at, now)]
    if entry.base_version is not None:
        parts.append(f"from v{entry.base_version}")
    parts.append(size_text(utf8_len(entry.text)))
    return " · ".join(parts)


class HistoryEntryModel(QAbstractListModel):
    """Rows are ``HistoryEntry`` values in the order given (the store hands them newest first)."""

    def __init__(self, parent: QObject | None = None, *, clock: Clock | None = None) -> None:
        super().__init__(parent)
        self._entries: list[HistoryEntry] = []
        self._clock: Clock = clock or (lambda: datetime.now(UTC))

    def set_entries(self, entries: Iterable[HistoryEntry]) -> None:
        self.beginResetModel()
        self._entries = list(entries)
        self.endResetModel()

    def entry_at(self, row: int) -> HistoryEntry | None:
        return self._entries[row] if 0 <= row < len(self._entries) else None

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._entries)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        entry = self.entry_at(index.row()) if index.isValid() else None
        if entry is None:
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return f"{entry.reason_label} — {entry_detail(entry, self._clock())}"
        if role == TITLE_ROLE:
            return entry.reason_label
        if role == DETAIL_ROLE:
            return entry_detail(entry, self._clock())
        if role == Qt.ItemDataRole.ToolTipRole:
            # Both lines whole: a narrow list cuts them with "…".
            when = exact_time(entry.created_at)
            return f"{entry.reason_label} on {when}\n{entry_detail(entry, self._clock())}"
        if role == Qt.ItemDataRole.DecorationRole:
            return icon("history")
        if role == ENTRY_ROLE:
            return entry
        if role == TEXT_ROLE:
            return entry.text
        return None
