"""The notes and collections an operator can embed, as a list model and a search filter.

Built for tens of thousands of notes: the search keys are lower-cased once per list, a key
typed costs one pass over plain strings (a narrower search only looks at the rows the last
one kept), and the views ask only for the rows they show.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)

from app.core.models import EmbeddableNote
from widgets.common.icons import icon

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
        self._keys: list[str] | None = None
        self._kind_rows: dict[str, list[int]] = {}

    def set_notes(self, notes: Iterable[EmbeddableNote]) -> None:
        self.beginResetModel()
        self._notes = list(notes)
        self._keys = None
        self._kind_rows = {}
        self.endResetModel()

    def notes(self) -> list[EmbeddableNote]:
        return list(self._notes)

    def note_at(self, row: int) -> EmbeddableNote:
        return self._notes[row]

    def search_keys(self) -> list[str]:
        """Per row, its title, path and level lower-cased: what a search looks in."""
        if self._keys is None:
            self._keys = [f"{n.title}\n{n.display_path}\n{n.level}".casefold() for n in self._notes]
        return self._keys

    def rows_of_kind(self, kind: str | None) -> list[int]:
        """The rows of notes (or collections); every row for None."""
        if kind is None:
            return list(range(len(self._notes)))
        if kind not in self._kind_rows:
            self._kind_rows[kind] = [i for i, n in enumerate(self._notes) if n.kind == kind]
        return self._kind_rows[kind]

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
            return note.display_path
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


class EmbeddableFilterProxy(QAbstractListModel):
    """The rows of one kind whose title, path or level holds every search word.

    A list model over the shared ``EmbeddableModel`` rather than a QSortFilterProxyModel:
    that one would call back into Python for each of 50,000 rows on every key.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._source: EmbeddableModel | None = None
        self._words: tuple[str, ...] = ()
        self._kind: Literal["note", "collection"] | None = None
        self._rows: list[int] = []
        # The last search and what it kept: a longer search only looks among those rows.
        self._last: tuple[tuple[str, ...], list[int]] | None = None

    def setSourceModel(self, model: EmbeddableModel) -> None:
        if self._source is not None:
            self._source.modelReset.disconnect(self._on_source_reset)
        self._source = model
        model.modelReset.connect(self._on_source_reset)
        self._on_source_reset()

    def sourceModel(self) -> EmbeddableModel | None:
        return self._source

    def set_search(self, text: str) -> None:
        self._words = tuple(text.casefold().split())
        self._refilter()

    def set_kind(self, kind: Literal["note", "collection"] | None) -> None:
        self._kind = kind
        self._last = None
        self._refilter()

    def mapToSource(self, index: AnyIndex) -> QModelIndex:
        if self._source is None or not index.isValid() or index.row() >= len(self._rows):
            return QModelIndex()
        return self._source.index(self._rows[index.row()], 0)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if self._source is None or not index.isValid() or index.row() >= len(self._rows):
            return None
        return self._source.data(self._source.index(self._rows[index.row()], 0), role)

    def _on_source_reset(self) -> None:
        self._last = None
        self._refilter()

    def _refilter(self) -> None:
        self.beginResetModel()
        self._rows = self._matching()
        self.endResetModel()

    def _matching(self) -> list[int]:
        source = self._source
        if source is None:
            return []
        words = self._words
        last = self._last
        if last is not None and _narrows(last[0], words):
            candidates = last[1]
        else:
            candidates = source.rows_of_kind(self._kind)
        if not words:
            rows = list(candidates)
        else:
            keys = source.search_keys()
            if len(words) == 1:
                word = words[0]
                rows = [i for i in candidates if word in keys[i]]
            else:
                rows = [i for i in candidates if all(w in keys[i] for w in words)]
        self._last = (words, rows)
        return rows


def _narrows(before: tuple[str, ...], now: tuple[str, ...]) -> bool:
    """Whether every row matching ``now`` also matched ``before`` (each earlier word lies
    inside the word now typed in its place)."""
    return len(now) >= len(before) and all(b in n for b, n in zip(before, now, strict=False))
