"""The notes and collections an operator can embed, as a list model and a search over it.

Built for tens of thousands of notes: the search (``note_search``) runs over keys prepared
once per list, and what it finds is shown a page at a time (``EmbeddableSearch`` fetches more
as the view scrolls), so Python is asked only for the rows a view shows.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from app.core.models import EmbeddableNote, Reader
from widgets.common.icons import icon
from widgets.common.plain_text import inert_tooltip
from widgets.editor.note_search import Found, NoteIndex, NoteKind, shown_title

PATH_ROLE = Qt.ItemDataRole.UserRole + 1
TITLE_ROLE = Qt.ItemDataRole.UserRole + 2
LEVEL_ROLE = Qt.ItemDataRole.UserRole + 3
KIND_ROLE = Qt.ItemDataRole.UserRole + 4
NOTE_ROLE = Qt.ItemDataRole.UserRole + 5
READABLE_ROLE = Qt.ItemDataRole.UserRole + 6  # by the search's reader: True, False, None

AnyIndex = QModelIndex | QPersistentModelIndex
FIRST_PAGE = 100  # rows shown at first: a screenful or ten; more come as the view scrolls
NEXT_PAGE = 500


NoteList = NoteIndex  # what ``with_search_keys`` gives: the name the window's code uses


def with_search_keys(notes: Iterable[EmbeddableNote]) -> NoteIndex:
    """The notes with what a search needs. Plain Python, no Qt: build it off the GUI thread,
    so the GUI thread doesn't lower-case 50,000 titles and paths when the list arrives."""
    return NoteIndex(notes)


class EmbeddableModel(QAbstractListModel):
    """One row per ``EmbeddableNote``; the title is shown, the path is in PATH_ROLE."""

    def __init__(self, notes: Iterable[EmbeddableNote] = (), parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._index = NoteIndex(notes)

    def set_notes(self, notes: Iterable[EmbeddableNote] | NoteIndex) -> None:
        index = notes if isinstance(notes, NoteIndex) else NoteIndex(notes)
        self.beginResetModel()
        self._index = index
        self.endResetModel()

    def search_index(self) -> NoteIndex:
        """The notes with their search keys (replaced, not changed, by ``set_notes``)."""
        return self._index

    def notes(self) -> list[EmbeddableNote]:
        return list(self._index.notes)

    def note_at(self, row: int) -> EmbeddableNote:
        return self._index.notes[row]

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._index)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        notes = self._index.notes
        if not index.isValid() or not 0 <= index.row() < len(notes):
            return None
        return self.note_data(index.row(), role)

    def note_data(self, row: int, role: int) -> object:
        """``data`` for the note at ``row`` (checked by the caller)."""
        note = self._index.notes[row]
        if role in (Qt.ItemDataRole.DisplayRole, TITLE_ROLE):
            return shown_title(note)
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


class EmbeddableSearch(QAbstractListModel):
    """The rows of one kind whose title, path or level holds every search word, best first;
    with a reader, the ones it can read first and each marked (READABLE_ROLE).

    A list model of its own over the shared ``EmbeddableModel``'s rows, not a proxy: a search
    replaces the rows (one reset) and only the first page is shown until the view asks for
    more (``fetchMore``), so neither filtering nor layout walks 50,000 rows in Qt. With
    ``paged`` False the rows stop at the first page (a completer's popup: typing narrows).
    """

    def __init__(
        self,
        notes: EmbeddableModel,
        parent: QObject | None = None,
        *,
        kind: NoteKind | None = None,
        reader: Reader | None = None,
        paged: bool = True,
    ) -> None:
        super().__init__(parent)
        self._notes = notes
        self._kind = kind
        self._reader = reader
        self._paged = paged
        self._text = ""
        self._found = Found([], [])
        self._shown = 0
        notes.modelReset.connect(self._search)
        self._search()

    def set_reader(self, reader: Reader | None) -> None:
        """Mark each row readable or not by ``reader`` (the agent being edited), and put the
        readable ones first; None: nothing is marked, and the server's order is kept."""
        self._reader = reader
        self._search()

    def set_search(self, text: str) -> None:
        if text != self._text:  # a new list re-runs the search by itself (modelReset)
            self._text = text
            self._search()

    def set_kind(self, kind: NoteKind | None) -> None:
        self._kind = kind
        self._search()

    def match_count(self) -> int:
        """How many rows match, shown or not yet."""
        return len(self._found)

    def matched_rows(self) -> list[int]:
        """The shared model's rows that match, in the order shown (all, not just a page)."""
        return self._found.rows

    def readable(self, note: EmbeddableNote) -> bool | None:
        return note.readable_by(self._reader) if self._reader is not None else None

    def note_row(self, index: AnyIndex) -> int:
        """The row in the shared model of a row shown here; -1 for none."""
        row = index.row() if index.isValid() else -1
        if not 0 <= row < self._shown:
            return -1
        readable = self._found.readable  # then the unreadable ones: not joined, 50,000 rows
        return readable[row] if row < len(readable) else self._found.unreadable[row - len(readable)]

    # ------------------------------------------------------------------ the model

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._shown

    def canFetchMore(self, parent: AnyIndex) -> bool:
        return self._paged and not parent.isValid() and self._shown < len(self._found)

    def fetchMore(self, parent: AnyIndex) -> None:
        if not self.canFetchMore(parent):
            return
        more = min(NEXT_PAGE, len(self._found) - self._shown)
        self.beginInsertRows(QModelIndex(), self._shown, self._shown + more - 1)
        self._shown += more
        self.endInsertRows()

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        row = self.note_row(index)
        if row < 0:
            return None
        if role == READABLE_ROLE:
            return self.readable(self._notes.note_at(row))
        return self._notes.note_data(row, role)

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemNeverHasChildren
        )

    def _search(self) -> None:
        found = self._notes.search_index().find(self._text, self._kind, self._reader)
        self.beginResetModel()
        self._found = found
        self._shown = min(len(found), FIRST_PAGE)
        self.endResetModel()
