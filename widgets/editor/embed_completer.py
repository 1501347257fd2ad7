"""The popup that offers embeddable notes after ``![[``, searched by title and path."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QCompleter, QListView, QWidget

from widgets.editor.embeddable_model import PATH_ROLE, EmbeddableModel, EmbeddableSearch
from widgets.editor.note_row_delegate import EmbeddableNoteDelegate


class EmbedCompleter(QCompleter):
    """Completes an embed; ``path_chosen(display_path)`` when the operator picks a row.

    QCompleter filters on one column only, so our search does the filtering (title or path)
    and the completer just shows what it is given: the best matches, one page of them (a
    popup of eight rows is narrowed by typing, not scrolled through thousands).
    """

    path_chosen = Signal(str)

    def __init__(self, model: EmbeddableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source_model = model
        self.proxy = EmbeddableSearch(model, self, paged=False)
        self.setModel(self.proxy)
        self.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        self.setCompletionRole(PATH_ROLE)
        self.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setWrapAround(False)
        self.setMaxVisibleItems(8)
        popup = self.popup()
        assert popup is not None  # QCompleter always makes one
        self.list_popup: QAbstractItemView = popup
        popup.setItemDelegate(EmbeddableNoteDelegate(popup))
        if isinstance(popup, QListView):  # one row height: no measuring thousands of rows
            popup.setUniformItemSizes(True)
        popup.setAccessibleName("Embeddable notes")
        popup.setMinimumWidth(380)
        # activated is overloaded (text, index); the text form carries PATH_ROLE.
        self.activated[str].connect(self.path_chosen)  # type: ignore[index]

    def set_search(self, text: str) -> int:
        """Filter to the rows matching ``text``; returns how many match."""
        self.proxy.set_search(text)
        return self.proxy.match_count()
