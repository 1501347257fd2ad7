"""Edit › Move to a note…: the dialog (path, title, who may read it) and the one-step edit."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.extract_note import Extraction, suggested_path, suggested_title
from app.core.models import AccessEntry, AgentRow
from app.desk.note_extract import ExtractCheck, NoteExtract
from widgets.common.plain_text import plain_label

SAME = (
    "The agent's prompt stays the same, byte for byte, but for the element that now wraps "
    "the moved text."
)
NOT_SAME = (
    "The agent's prompt would change beyond the wrapping element (an embed in the selection "
    "moves a hop deeper, or the agent can't read the note): check the access, or move less."
)
UNDO = "Edit › Undo puts the text back in the Task in one step; the note stays."
CHECKING = "Checking what the agent's run gets…"


def qt_to_py(text: str, position: int) -> int:
    """A QTextDocument position (UTF-16 units) as an index into the Python string."""
    return len(text.encode("utf-16-le")[: position * 2].decode("utf-16-le", "ignore"))


class MoveToNoteDialog(QDialog):
    """Asks where the note goes and who reads it; says what the run gets and who reads it."""

    def __init__(
        self,
        controller: NoteExtract,
        agent: AgentRow,
        guild_name: str,
        org_id: str,
        task_text: str,
        start: int,
        end: int,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("MoveToNoteDialog")
        self.setWindowTitle("Move to a note")
        self.controller = controller
        controller.setParent(self)  # lives and dies with the dialog, its signals with it
        self.agent = agent
        self.task_text, self.start, self.end = task_text, start, end
        selection = task_text[start:end]
        self.path_edit = QLineEdit(suggested_path(org_id, agent.guild_id, selection))
        self.path_edit.setAccessibleName("Path")
        self.title_edit = QLineEdit(suggested_title(selection))
        self.title_edit.setAccessibleName("Title")
        self.access_box = QComboBox()
        self.access_box.setAccessibleName("Who may read it")
        self._choices: list[tuple[AccessEntry, ...]] = [
            (AccessEntry(f"guild:{agent.guild_id}", "read"),),
            (AccessEntry("org", "read"),),
            (AccessEntry(f"agent:{agent.id}", "read"),),
        ]
        for label in (f"{guild_name}: read", "The whole org: read", f"Only {agent.name}: read"):
            self.access_box.addItem(label)
        self.readers_label = plain_label("")
        self.readers_label.setWordWrap(True)
        self.check_label = plain_label(CHECKING)
        self.check_label.setWordWrap(True)
        self.undo_label = plain_label(UNDO)
        self.undo_label.setObjectName("hint")
        self.error_label = plain_label("")
        self.error_label.setObjectName("danger")
        self.error_label.setWordWrap(True)
        self.buttons = QDialogButtonBox()
        self.move_button: QPushButton = self.buttons.addButton(
            "Move", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.cancel_button: QPushButton = self.buttons.addButton(
            "Cancel", QDialogButtonBox.ButtonRole.RejectRole
        )
        self.move_button.setEnabled(False)
        form = QFormLayout()
        form.addRow("Path", self.path_edit)
        form.addRow("Title", self.title_edit)
        form.addRow("Who may read it", self.access_box)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.readers_label)
        layout.addWidget(self.check_label)
        layout.addWidget(self.undo_label)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(560)
        self._pause = QTimer(self)
        self._pause.setSingleShot(True)
        self._pause.setInterval(250)
        self._pause.timeout.connect(self.on_check)
        self.path_edit.textChanged.connect(self._changed)
        self.title_edit.textChanged.connect(self._changed)
        self.access_box.currentIndexChanged.connect(self._changed)
        self.move_button.clicked.connect(self.on_move)
        self.cancel_button.clicked.connect(self.reject)
        controller.checked.connect(self.on_checked)
        controller.check_failed.connect(self.on_failed)
        controller.move_failed.connect(self.on_failed)
        controller.moved.connect(self.on_moved)
        self.moved: Extraction | None = None
        self.on_check()

    @property
    def access(self) -> tuple[AccessEntry, ...]:
        return self._choices[self.access_box.currentIndex()]

    def _changed(self) -> None:
        self.move_button.setEnabled(False)
        self.check_label.setText(CHECKING)
        self._pause.start()

    def on_check(self) -> None:
        self.error_label.setText("")
        self.controller.check(
            self.agent,
            self.task_text,
            self.start,
            self.end,
            self.path_edit.text().strip(),
            self.title_edit.text(),
            self.access,
        )

    def on_checked(self, found: ExtractCheck) -> None:
        if found.path != self.path_edit.text().strip():
            return  # an answer for a path since changed
        names = ", ".join(a.name for a in found.readers[:8])
        more = f" and {len(found.readers) - 8} more" if len(found.readers) > 8 else ""
        count = len(found.readers)
        self.readers_label.setText(
            f"Reaches {count} agent{'s' if count != 1 else ''}: {names}{more}."
            if count
            else "No agent can read it with this access."
        )
        self.check_label.setText(SAME if found.same_but_wrapper else NOT_SAME)
        self.move_button.setEnabled(True)

    def on_failed(self, text: str) -> None:
        self.error_label.setText(text)
        self.move_button.setEnabled(True)

    def on_move(self) -> None:
        self.move_button.setEnabled(False)
        self.error_label.setText("")
        self.controller.move(
            self.task_text,
            self.start,
            self.end,
            self.path_edit.text().strip(),
            self.title_edit.text(),
            self.access,
        )

    def on_moved(self, moved: Extraction) -> None:
        self.moved = moved
        self.accept()


def replace_selection(editor: QPlainTextEdit, start: int, end: int, moved: Extraction) -> None:
    """Put the embed where the selection was, in one undo step (Python string indices)."""
    text = editor.toPlainText()
    trailing = text[start:end][len(text[start:end].rstrip("\r\n")) :]
    cursor = QTextCursor(editor.document())
    cursor.beginEditBlock()
    cursor.setPosition(_utf16(text, start))
    cursor.setPosition(_utf16(text, end), QTextCursor.MoveMode.KeepAnchor)
    cursor.insertText(moved.embed + trailing)
    cursor.endEditBlock()
    editor.setTextCursor(cursor)


def _utf16(text: str, index: int) -> int:
    return len(text[:index].encode("utf-16-le")) // 2
