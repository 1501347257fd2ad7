"""A note's earlier texts beside its editor: pick one, and put its text in the editor."""

from __future__ import annotations

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import QListView, QPushButton, QVBoxLayout, QWidget

from app.core.note_uses import NoteRevision
from widgets.common.plain_text import plain_label

Index = QModelIndex | QPersistentModelIndex


def revision_text(revision: NoteRevision) -> str:
    who = f" by {revision.replaced_by_name}" if revision.replaced_by_name else ""
    return f"v{revision.version} · replaced {revision.replaced_at[:16].replace('T', ' ')}{who}"


class RevisionModel(QAbstractListModel):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[NoteRevision] = []

    def set_rows(self, rows: tuple[NoteRevision, ...]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self.rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or role != Qt.ItemDataRole.DisplayRole:
            return None
        return revision_text(self.rows[index.row()])


class NoteVersions(QWidget):
    """``text_chosen(text)``: put an earlier version's text in the editor (an unsaved edit)."""

    text_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("NoteVersions")
        self.title_label = plain_label("Earlier versions")
        self.empty_label = plain_label("No earlier versions yet.")
        self.empty_label.setObjectName("hint")
        self.model = RevisionModel()
        self.list_view = QListView()
        self.list_view.setAccessibleName("Earlier versions of the note")
        self.list_view.setModel(self.model)
        self.use_button = QPushButton("Put this text in the editor")
        self.use_button.setAccessibleName("Put this text in the editor")
        self.use_button.setEnabled(False)
        self.use_button.clicked.connect(self._on_use)
        self.list_view.selectionModel().currentChanged.connect(
            lambda current, _previous: self.use_button.setEnabled(current.isValid())
        )
        self.list_view.doubleClicked.connect(lambda _index: self._on_use())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title_label)
        layout.addWidget(self.empty_label)
        layout.addWidget(self.list_view, 1)
        layout.addWidget(self.use_button)

    def show_revisions(self, revisions: tuple[NoteRevision, ...]) -> None:
        self.model.set_rows(revisions)
        self.empty_label.setVisible(not revisions)
        self.use_button.setEnabled(self.list_view.currentIndex().isValid())

    def _on_use(self) -> None:
        index = self.list_view.currentIndex()
        if index.isValid():
            self.text_chosen.emit(self.model.rows[index.row()].text)
