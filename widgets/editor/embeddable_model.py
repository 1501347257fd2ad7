"""The notes and collections an operator can embed, as a list model and a search filter."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Literal

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

from app.core.models import EmbeddableNote
from widgets.common.icons import icon
from widgets.common.plain_text import inert_tooltip

PATH_ROLE = Qt.ItemDataRole.UserRole + 1
TITLE_ROLE = Qt.ItemDataRole.UserRole + 2
LEVEL_ROLE = Qt.ItemDataRole.UserRole + 3
KIND_ROLE = Qt.ItemDataRole.UserRole + 4
NOTE_ROLE = Qt.ItemDataRole.UserRole + 5

AnyIndex = QModelIndex | QPersistentModelIndex


class EmbeddableModel(QAbstractListModel):
    """One row per ``EmbeddableNote``; the title is shown, the path is in PATH_ROLE."""

    def __init__(self, notes: Iterable[EmbeddableNote] = (), parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._notes: list[EmbeddableNote] = list(notes)

    def set_notes(self, notes: Iterable[EmbeddableNote]) -> None:
        self.beginResetModel()
        self._notes = list(notes)
        self.endResetModel()

    def notes(self) -> list[EmbeddableNote]:
        return list(self._notes)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._notes)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._notes):
            return None
        note = self._notes[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, TITLE_ROLE):
            return note.title or note.display_path.rsplit("/", 1)[-1]
        if role in (PATH_ROLE, Qt.ItemDataRole.EditRole):
            return note.display_path
        if role == Qt.ItemDataRole.ToolTipRole:
            return inert_tooltip(note.display_path)
        if role == LEVEL_ROLE:
            return note.level
        if role == KIND_ROLE:
            return note.kind
        if role == NOTE_ROLE:
            return note
        if role == Qt.ItemDataRole.DecorationRole:
            return icon("collection" if note.kind == "collection" else "note")
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{note.title}, {note.level}, {note.display_path}"
        return None


class EmbeddableFilterProxy(QSortFilterProxyModel):
    """Keeps the rows of one kind whose title, path or level holds every search word."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._words: tuple[str, ...] = ()
        self._kind: Literal["note", "collection"] | None = None

    def set_search(self, text: str) -> None:
        words = tuple(text.casefold().split())
        self._refilter(lambda: setattr(self, "_words", words))

    def set_kind(self, kind: Literal["note", "collection"] | None) -> None:
        self._refilter(lambda: setattr(self, "_kind", kind))

    def _refilter(self, change: Callable[[], None]) -> None:
        # Qt 6.9 brought begin/endFilterChange and deprecated invalidateRowsFilter after it.
        if hasattr(self, "beginFilterChange"):
            self.beginFilterChange()
            change()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            change()
            self.invalidateRowsFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: AnyIndex) -> bool:
        source = self.sourceModel()
        index = source.index(source_row, 0, source_parent)
        note = source.data(index, NOTE_ROLE)
        if not isinstance(note, EmbeddableNote):
            return False
        if self._kind is not None and note.kind != self._kind:
            return False
        haystack = f"{note.title}\n{note.display_path}\n{note.level}".casefold()
        return all(word in haystack for word in self._words)
