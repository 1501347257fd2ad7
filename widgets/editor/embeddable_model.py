"""The notes and collections an operator can embed, as a list model and a search filter.

Built for tens of thousands of notes: the search keys are lower-cased once per list into a
C++ string model, a key typed is one C++ filter pass over them (QSortFilterProxyModel with a
regular expression), and Python is asked only for the rows a view shows.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractListModel,
    QIdentityProxyModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRegularExpression,
    QSortFilterProxyModel,
    QStringListModel,
    Qt,
)

from app.core.models import EmbeddableNote, Reader
from widgets.common.icons import icon
from widgets.common.plain_text import inert_tooltip

PATH_ROLE = Qt.ItemDataRole.UserRole + 1
TITLE_ROLE = Qt.ItemDataRole.UserRole + 2
LEVEL_ROLE = Qt.ItemDataRole.UserRole + 3
KIND_ROLE = Qt.ItemDataRole.UserRole + 4
NOTE_ROLE = Qt.ItemDataRole.UserRole + 5
READABLE_ROLE = Qt.ItemDataRole.UserRole + 6  # by the proxy's reader: True, False, None

AnyIndex = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True, slots=True)
class NoteList:
    """Notes with their search keys: built by ``with_search_keys`` on a worker thread, so the
    GUI thread doesn't lower-case 50,000 titles and paths when the list arrives."""

    notes: list[EmbeddableNote]
    keys: list[str]


def with_search_keys(notes: Iterable[EmbeddableNote]) -> NoteList:
    """Plain Python, no Qt: safe off the GUI thread."""
    listed = list(notes)
    return NoteList(listed, _key_strings(listed))


def _key_strings(notes: list[EmbeddableNote]) -> list[str]:
    """Per note, ``kind<TAB>title, path and level`` lower-cased: what a search looks in."""
    return [f"{n.kind}\t{n.title}\n{n.display_path}\n{n.level}".casefold() for n in notes]


class EmbeddableModel(QAbstractListModel):
    """One row per ``EmbeddableNote``; the title is shown, the path is in PATH_ROLE."""

    def __init__(self, notes: Iterable[EmbeddableNote] = (), parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._notes: list[EmbeddableNote] = list(notes)
        self._keys: QStringListModel | None = None
        self._key_list = _key_strings(self._notes)

    def set_notes(self, notes: Iterable[EmbeddableNote] | NoteList) -> None:
        listed = notes if isinstance(notes, NoteList) else with_search_keys(notes)
        self.beginResetModel()
        self._notes = listed.notes
        self._key_list = listed.keys
        self.endResetModel()
        if self._keys is not None:
            self._keys.setStringList(listed.keys)

    def notes(self) -> list[EmbeddableNote]:
        return list(self._notes)

    def note_at(self, row: int) -> EmbeddableNote:
        return self._notes[row]

    def key_list(self) -> list[str]:
        """The search keys, one per row (see ``search_keys``)."""
        return self._key_list

    def search_keys(self) -> QStringListModel:
        """Per row, ``kind<TAB>title, path and level`` lower-cased, as a C++ string model:
        what the search filters run over without calling back into Python per row."""
        if self._keys is None:
            self._keys = QStringListModel(self)
            self._keys.setStringList(self._key_list)
        return self._keys

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


class EmbeddableFilterProxy(QIdentityProxyModel):
    """The rows of one kind whose title, path or level holds every search word.

    Filtering runs in C++ over the shared model's search keys; this proxy only maps the rows
    a view asks for back to their notes. (A QSortFilterProxyModel over the notes themselves
    would call Python for each of 50,000 rows on every key.)
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._notes: EmbeddableModel | None = None
        self._words: tuple[str, ...] = ()
        self._kind: Literal["note", "collection"] | None = None
        self._reader: Reader | None = None
        self._filter = QSortFilterProxyModel(self)
        self._filter.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseSensitive)  # keys are folded
        # With a reader: this proxy's own copy of the search keys, readable notes first, and
        # per row of it the shared model's row. Ordered once per list or reader, so a key
        # typed stays one C++ filter pass (a sort over the filter would call Python per pair).
        self._ordered_keys = QStringListModel(self)
        self._order: list[int] | None = None
        super().setSourceModel(self._filter)

    def setSourceModel(self, model: QAbstractItemModel) -> None:
        assert isinstance(model, EmbeddableModel)
        if self._notes is not None:
            self._notes.modelReset.disconnect(self._rank)
        self._notes = model
        model.modelReset.connect(self._rank)  # before its search keys reset
        self._filter.setSourceModel(model.search_keys())
        self._rank()
        self._apply()

    def set_reader(self, reader: Reader | None) -> None:
        """Mark each row readable or not by ``reader`` (the agent being edited), and put the
        readable ones first; None: nothing is marked, and the server's order is kept."""
        self._reader = reader
        self._rank()

    def readable(self, note: EmbeddableNote) -> bool | None:
        return note.readable_by(self._reader) if self._reader is not None else None

    def _rank(self) -> None:
        notes = self._notes
        if notes is None:
            return
        reader = self._reader
        if reader is None:
            self._order = None
            if self._filter.sourceModel() is not notes.search_keys():
                self._filter.setSourceModel(notes.search_keys())
            return
        unreadable = [n.readable_by(reader) is False for n in notes.notes()]
        order = [i for i, no in enumerate(unreadable) if not no]
        order += [i for i, no in enumerate(unreadable) if no]
        keys = notes.key_list()
        self._order = order
        self._ordered_keys.setStringList([keys[i] for i in order])
        if self._filter.sourceModel() is not self._ordered_keys:
            self._filter.setSourceModel(self._ordered_keys)

    def set_search(self, text: str) -> None:
        self._words = tuple(text.casefold().split())
        self._apply()

    def set_kind(self, kind: Literal["note", "collection"] | None) -> None:
        self._kind = kind
        self._apply()

    def note_row(self, index: AnyIndex) -> int:
        """The row in the shared model of a row shown here; -1 for none."""
        row = self._filter.mapToSource(self.mapToSource(index)).row()
        return self._order[row] if self._order is not None and row >= 0 else row

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        row = self.note_row(index) if index.isValid() else -1
        if self._notes is None or row < 0:
            return None
        if role == READABLE_ROLE:
            return self.readable(self._notes.note_at(row))
        return self._notes.data(self._notes.index(row, 0), role)

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemNeverHasChildren
        )

    def _apply(self) -> None:
        if self._kind is None and len(self._words) <= 1:
            # The completer's usual case: one word, any kind; a plain search beats a pattern.
            self._filter.setFilterFixedString(self._words[0] if self._words else "")
            return
        # Each word a lookahead (every word, any order) after the row's kind.
        kind = f"{self._kind}\t" if self._kind is not None else ""
        looks = "".join(f"(?=.*?{QRegularExpression.escape(w)})" for w in self._words)
        pattern = QRegularExpression(
            f"^{kind}{looks}" if kind or looks else "",
            QRegularExpression.PatternOption.DotMatchesEverythingOption,
        )
        self._filter.setFilterRegularExpression(pattern)
