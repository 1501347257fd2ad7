"""Insert › Note and Insert › Table: a searchable picker over the embeddable notes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.models import AgentRow, EmbeddableNote, Reader
from widgets.common.fields import name_clear_button
from widgets.common.plain_text import plain_label
from widgets.editor.embeddable_model import (
    NOTE_ROLE,
    PATH_ROLE,
    READABLE_ROLE,
    EmbeddableModel,
    EmbeddableSearch,
)
from widgets.editor.note_row_delegate import EmbeddableNoteDelegate


class InsertPickerDialog(QDialog):
    """Pick a note (Insert › Note) or a collection (Insert › Table); then ``chosen_path()``."""

    def __init__(
        self,
        notes: Iterable[EmbeddableNote] | EmbeddableModel,
        kind: Literal["note", "collection"] = "note",
        parent: QWidget | None = None,
        *,
        agent: AgentRow | None = None,
    ) -> None:
        super().__init__(parent)
        self._kind = kind
        self._agent = agent
        self._chosen: str | None = None
        self.unreadable_box: UnreadableNoteBox | None = None
        noun = "note" if kind == "note" else "table"
        self.setWindowTitle("Insert note" if kind == "note" else "Insert table")
        self.setAccessibleName(self.windowTitle())
        self.setObjectName("InsertPickerDialog")

        self.model = notes if isinstance(notes, EmbeddableModel) else EmbeddableModel(notes, self)
        reader = Reader(agent.id, agent.guild_id) if agent is not None else None
        # What the list shows: the search's best matches, a page at a time.
        self.proxy = EmbeddableSearch(self.model, self, kind=kind, reader=reader)
        self.reader_label = plain_label(self._reader_text())
        self.reader_label.setObjectName("hint")
        self.reader_label.setWordWrap(True)
        self.reader_label.setVisible(agent is not None)
        # A method, not a lambda: the shared model outlives the picker, and Qt drops a
        # connection to a deleted QObject's method, never one to a closure over it.
        self.model.modelReset.connect(self._on_notes_reset)

        search_label = QLabel("&Search")
        self.search_field = QLineEdit()
        self.search_field.setPlaceholderText("Title or path")
        name_clear_button(self.search_field, "Clear the search")
        self.search_field.setAccessibleName("Search")
        search_label.setBuddy(self.search_field)

        self.list_view = QListView()
        self.list_view.setModel(self.proxy)
        self.list_view.setItemDelegate(EmbeddableNoteDelegate(self.list_view))
        self.list_view.setUniformItemSizes(True)  # one row measured, not one per note
        self.list_view.setEditTriggers(QListView.EditTrigger.NoEditTriggers)
        self.list_view.setAccessibleName("Notes" if kind == "note" else "Tables")

        self.empty_label = QLabel(f"No {noun} matches.")
        self.empty_label.setObjectName("hint")
        self.empty_label.setAccessibleName(self.empty_label.text())

        self.insert_button = QPushButton("&Insert")
        self.insert_button.setAccessibleName("Insert")
        self.insert_button.setDefault(True)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setAccessibleName("Cancel")

        buttons = QHBoxLayout()
        buttons.addWidget(self.empty_label)
        buttons.addStretch(1)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.insert_button)
        layout = QVBoxLayout(self)
        search_row = QHBoxLayout()
        search_row.addWidget(search_label)
        search_row.addWidget(self.search_field, 1)
        layout.addLayout(search_row)
        layout.addWidget(self.reader_label)
        layout.addWidget(self.list_view, 1)
        layout.addLayout(buttons)
        self.resize(520, 420)

        self.search_field.textChanged.connect(self.on_search_changed)
        self.search_field.installEventFilter(self)
        # activated covers double-click (or single click, where the style says so) and Enter.
        self.list_view.activated.connect(self.on_activated)
        self.insert_button.clicked.connect(self.on_insert)
        self.cancel_button.clicked.connect(self.reject)
        self.list_view.selectionModel().currentChanged.connect(self._update_buttons)
        self.on_search_changed("")

    def chosen_path(self) -> str | None:
        """The display path chosen, or None when the picker was cancelled."""
        return self._chosen

    def current_path(self) -> str | None:
        index = self.list_view.currentIndex()
        return str(index.data(PATH_ROLE)) if index.isValid() else None

    # ------------------------------------------------------------------ slots

    def on_search_changed(self, text: str) -> None:
        self.proxy.set_search(text)
        if self.proxy.rowCount():  # the best match, ready for Enter
            self.list_view.setCurrentIndex(self.proxy.index(0, 0))
        self._update_buttons()

    def on_activated(self, index: QModelIndex) -> None:
        if index.isValid():
            self.list_view.setCurrentIndex(index)
            self.on_insert()

    def on_insert(self) -> None:
        # One choice per dialog: a double-click, Enter and a late button press all land here.
        if self._chosen is not None or self.unreadable_box is not None:
            return
        index = self.list_view.currentIndex()
        path = self.current_path()
        if path is None:
            return
        note = index.data(NOTE_ROLE)
        if index.data(READABLE_ROLE) is False and isinstance(note, EmbeddableNote):
            self._ask_first(note)
            return
        self._choose(path)

    def _choose(self, path: str) -> None:
        self._chosen = path
        self.accept()

    def _ask_first(self, note: EmbeddableNote) -> None:
        """Say why before inserting a note the agent can't read; insert only if told to."""
        name = self._agent.name if self._agent is not None else "This agent"
        box = UnreadableNoteBox(name, note, self)
        self.unreadable_box = box

        def answered(result: int) -> None:
            self.unreadable_box = None
            box.deleteLater()
            if box.clickedButton() is box.insert_button:
                self._choose(note.display_path)

        box.finished.connect(answered)
        box.open()

    def _on_notes_reset(self) -> None:
        self.reader_label.setText(self._reader_text())

    def _reader_text(self) -> str:
        agent = self._agent
        if agent is None:
            return ""
        if self.model.rowCount() and not self.model.search_index().shares_access:
            return (
                f"This server doesn't share who can read each note, so whether {agent.name} "
                "can read one can't be checked here."
            )
        return f"Marked by what {agent.name} can read; the ones it can't read come last."

    def _update_buttons(self) -> None:
        has_rows = self.proxy.rowCount() > 0
        self.empty_label.setVisible(not has_rows)
        self.insert_button.setEnabled(self.list_view.currentIndex().isValid())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Up and Down in the search field move through the list, so the mouse is never needed.
        if watched is self.search_field and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            if event.key() in (
                Qt.Key.Key_Up,
                Qt.Key.Key_Down,
                Qt.Key.Key_PageUp,
                Qt.Key.Key_PageDown,
            ):
                self.list_view.keyPressEvent(event)
                return True
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.on_insert()
                return True
        return super().eventFilter(watched, event)


class UnreadableNoteBox(QMessageBox):
    """Asks before a note the agent can't read goes in: a run gets the marker instead."""

    def __init__(
        self, agent_name: str, note: EmbeddableNote, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        noun = "table" if note.kind == "collection" else "note"
        title = note.title or note.display_path.rsplit("/", 1)[-1]
        self.setIcon(QMessageBox.Icon.Warning)
        self.setWindowTitle(f"{agent_name} can't read this {noun}")
        self.setTextFormat(Qt.TextFormat.PlainText)  # titles and names come from a server
        self.setText(
            f"{agent_name} can't read “{title}” ({note.display_path}): its access list gives "
            f"no read to {agent_name}, its guild or the whole org. A run would get the "
            "“not reachable” marker in its place. Insert it anyway?"
        )
        self.insert_button = self.addButton("Insert anyway", QMessageBox.ButtonRole.AcceptRole)
        self.cancel_button = self.addButton(QMessageBox.StandardButton.Cancel)
        self.setDefaultButton(self.cancel_button)
        self.setAccessibleName(self.windowTitle())
