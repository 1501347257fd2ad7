"""Local history: browse the texts the operator replaced, copy from them, insert one back."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from PySide6.QtCore import QItemSelection, Qt, Signal
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.limits import utf8_len
from app.desk.failures import failure_text
from app.desk.runner import Runner
from app.store import HistoryEntry
from widgets.common.two_line_delegate import two_line_list
from widgets.versions.history_entry_model import (
    DETAIL_ROLE,
    TITLE_ROLE,
    Clock,
    HistoryEntryModel,
    size_text,
)

EMPTY_TEXT = (
    "Nothing replaced yet: texts you discard, replace with theirs or restore over are kept here."
)
LOADING_TEXT = "Reading the local history…"
INTRO_TEXT = (
    "Texts you replaced on this computer. Copy from one, or insert it at the cursor "
    "(Edit › Undo takes the insert back)."
)
TYPICAL_TITLE = "Replaced by a restored version"
TYPICAL_DETAIL = "yesterday · from v12 · 12.4 KB"
"""The longest title and a typical second line: the list is made wide enough for them."""

HistoryLoader = Callable[[], Sequence[HistoryEntry]]
LoadState = Literal["idle", "loading", "empty", "failed", "ready"]


def insert_at_cursor(editor: QPlainTextEdit, text: str) -> None:
    """Insert ``text`` at the editor's cursor as one undo step.

    A selection is left in place, not replaced: inserting never overwrites the operator's
    text without them seeing it happen.
    """
    cursor = editor.textCursor()
    cursor.clearSelection()
    cursor.beginEditBlock()
    cursor.insertText(text)
    cursor.endEditBlock()
    editor.setTextCursor(cursor)


class LocalHistoryDialog(QDialog):
    """Lists one agent's local history, newest first, and shows the selected text read-only.

    ``load()`` reads the entries through ``loader`` on the runner's disk lane (the GUI thread
    never waits on the store); ``loaded`` fires when they are shown, ``load_failed(message)``
    when they could not be read. ``insert_requested(text)`` asks the window to insert the
    selected text at the editor's cursor; the dialog then closes.
    """

    loaded = Signal()
    load_failed = Signal(str)
    insert_requested = Signal(str)

    def __init__(
        self,
        agent_name: str,
        loader: HistoryLoader,
        runner: Runner,
        parent: QWidget | None = None,
        *,
        clock: Clock | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("LocalHistoryDialog")
        title = f"Local history — {agent_name}" if agent_name else "Local history"
        self.setWindowTitle(title)
        self.setAccessibleName(title)
        self._loader = loader
        self._runner = runner
        self._abandoned = False  # closed: a late read must not touch the widgets
        self.state: LoadState = "idle"

        self.intro_label = QLabel(INTRO_TEXT)
        self.intro_label.setObjectName("hint")
        self.intro_label.setWordWrap(True)

        self.model = HistoryEntryModel(self, clock=clock)
        self.list_view, self.delegate = two_line_list(
            self.model, "Replaced texts", (TITLE_ROLE, DETAIL_ROLE), (TYPICAL_TITLE, TYPICAL_DETAIL)
        )

        self.text_view = QPlainTextEdit()
        self.text_view.setObjectName("HistoryText")
        self.text_view.setReadOnly(True)
        self.text_view.setAccessibleName("Replaced text")
        self.text_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text_view.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.text_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)

        browse = QSplitter(Qt.Orientation.Horizontal)
        browse.setChildrenCollapsible(False)
        browse.addWidget(self.list_view)
        browse.addWidget(self.text_view)
        browse.setStretchFactor(0, 0)
        browse.setStretchFactor(1, 1)
        browse.setSizes([self.list_view.minimumWidth() + 40, 10_000])

        self.status_label = QLabel(LOADING_TEXT)
        self.status_label.setObjectName("hint")
        self.status_label.setWordWrap(True)
        self.status_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.pages = QStackedWidget()
        self.pages.addWidget(self.status_label)
        self.pages.addWidget(browse)
        self._browse_page = browse

        self.copy_button = QPushButton("Copy text")
        self.insert_button = QPushButton("Insert at cursor")
        self.close_button = QPushButton("Close")
        self.copy_button.setToolTip("Put the whole text on the clipboard")
        self.insert_button.setToolTip(
            "Insert the whole text at the editor's cursor (Edit › Undo takes it back)"
        )
        for button in (self.copy_button, self.insert_button, self.close_button):
            button.setAccessibleName(button.text())
            button.setAutoDefault(False)
        self.close_button.setDefault(True)
        self.feedback_label = QLabel("")
        self.feedback_label.setObjectName("hint")
        self.feedback_label.setAccessibleName("Result")

        buttons = QDialogButtonBox()
        buttons.addButton(self.close_button, QDialogButtonBox.ButtonRole.RejectRole)
        bar = QHBoxLayout()
        bar.addWidget(self.copy_button)
        bar.addWidget(self.insert_button)
        bar.addSpacing(8)
        bar.addWidget(self.feedback_label, 1)
        bar.addWidget(buttons)

        layout = QVBoxLayout(self)
        layout.addWidget(self.intro_label)
        layout.addWidget(self.pages, 1)
        layout.addLayout(bar)

        self.list_view.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.copy_button.clicked.connect(self.on_copy)
        self.insert_button.clicked.connect(self.on_insert)
        self.close_button.clicked.connect(self.reject)
        self._update_buttons()
        self.resize(920, 560)

    # ------------------------------------------------------------------ loading

    def load(self) -> None:
        """Read the entries off the GUI thread; the dialog says it is reading meanwhile."""
        self._abandoned = False
        self._set_state("loading", LOADING_TEXT)
        self._runner.submit(
            self._loader, on_done=self._on_loaded, on_error=self._on_load_failed, lane="disk"
        )

    def _on_loaded(self, entries: Sequence[HistoryEntry]) -> None:
        if self._abandoned:
            return
        self.model.set_entries(entries)
        if entries:
            self._set_state("ready", "")
            self.list_view.setCurrentIndex(self.model.index(0, 0))
        else:
            self._set_state("empty", EMPTY_TEXT)
        self.loaded.emit()

    def _on_load_failed(self, exc: BaseException) -> None:
        if self._abandoned:
            return
        reason = failure_text(exc)
        message = f"The local history could not be read. {reason}"
        self._set_state("failed", message)
        self.load_failed.emit(message)

    def _set_state(self, state: LoadState, text: str) -> None:
        self.state = state
        if state == "ready":
            self.pages.setCurrentWidget(self._browse_page)
        else:
            self.status_label.setText(text)
            self.status_label.setAccessibleName(text)
            self.pages.setCurrentWidget(self.status_label)
        self._update_buttons()

    # ------------------------------------------------------------------ selection

    def selected(self) -> HistoryEntry | None:
        if self.state != "ready":
            return None
        index = self.list_view.currentIndex()
        return self.model.entry_at(index.row()) if index.isValid() else None

    def select_row(self, row: int) -> None:
        index = self.model.index(row, 0)
        if index.isValid():
            self.list_view.setCurrentIndex(index)

    def _on_selection_changed(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        entry = self.selected()
        self.text_view.setPlainText(entry.text if entry is not None else "")
        self.feedback_label.clear()
        self._update_buttons()

    def _update_buttons(self) -> None:
        has_entry = self.selected() is not None
        self.copy_button.setEnabled(has_entry)
        self.insert_button.setEnabled(has_entry)

    # ------------------------------------------------------------------ commands

    def on_copy(self) -> None:
        entry = self.selected()
        if entry is None:
            return
        QGuiApplication.clipboard().setText(entry.text)
        self.feedback_label.setText(f"Copied {size_text(utf8_len(entry.text))} to the clipboard.")

    def on_insert(self) -> None:
        entry = self.selected()
        if entry is None:
            return
        self.insert_requested.emit(entry.text)
        self.accept()

    def done(self, result: int) -> None:
        self._abandoned = True
        super().done(result)
