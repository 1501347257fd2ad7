"""The Task editor: plain text with Markdown highlighting, embed completion and plain paste."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from PySide6.QtCore import QEvent, QMimeData, Qt, Signal
from PySide6.QtGui import QFontDatabase, QKeyEvent, QKeySequence, QShowEvent, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from app.core.line_endings import LineEndings
from app.core.models import EmbeddableNote, Reader
from widgets.common.theme import current_theme
from widgets.editor.embed_completer import EmbedCompleter
from widgets.editor.embeddable_model import EmbeddableModel
from widgets.editor.highlight_later import HighlightLater
from widgets.editor.highlighter import EmbedVerdict, TaskHighlighter
from widgets.editor.note_search import NoteIndex

_EMBED_OPEN = "![["
_POPUP_KEYS = frozenset(
    {Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape, Qt.Key.Key_Tab, Qt.Key.Key_Backtab}
)


class TaskEditor(QPlainTextEdit):
    """Edit mode of the Prompt tab. Shows and edits text; the session decides what it means."""

    find_requested = Signal()
    replace_requested = Signal()

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        embeddable: EmbeddableModel | None = None,
    ) -> None:
        super().__init__(parent)
        self._endings = LineEndings("")
        self.setObjectName("TaskEditor")
        self.setAccessibleName("Task text")
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setTabChangesFocus(False)
        self.setUndoRedoEnabled(True)
        self.highlighter = TaskHighlighter(self.document())
        self._highlight_later = HighlightLater(self, self.highlighter)
        # Scrolled while a replacement is highlighted in slices: what comes into view first.
        self.verticalScrollBar().valueChanged.connect(self._highlight_later.highlight_shown)
        self.embeddable_model = (
            embeddable if embeddable is not None else EmbeddableModel(parent=self)
        )
        self.completer = EmbedCompleter(self.embeddable_model, self)
        self.completer.setWidget(self)
        self.completer.path_chosen.connect(self.on_completion_chosen)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.StyleChange):
            self.highlighter.set_theme(current_theme())  # light or dark changed

    # ------------------------------------------------------------------ what others call

    def set_text(self, text: str) -> None:
        """Replace the whole text (a load, not an edit: the undo history starts afresh).

        A hidden editor (a Task opens in Preview) is highlighted once it is shown: Qt calls
        the highlighter for every block, ~17 ms of a 256 KB load on the GUI thread, which
        the preview's first screen would wait for.
        """
        self._highlight_later.stop()  # highlighted whole as it goes in
        self.keep_line_endings_of(text)
        if not self.isVisible():
            self.highlighter.setDocument(None)  # attached again by showEvent
        self.setPlainText(text)

    def replace_text(self, text: str) -> None:
        """Replace the whole text as one edit, which Undo takes back alone (a restore, a
        merge). The blocks on screen are highlighted at once, the rest in slices of a few ms
        between events (``highlight_later``): a merge can be twice the size of either text."""
        self.keep_line_endings_of(text)
        self._highlight_later.replace(text)

    @property
    def highlighting_left(self) -> bool:
        """Whether some of the last ``replace_text`` is still to be highlighted."""
        return self._highlight_later.pending

    def showEvent(self, event: QShowEvent) -> None:
        self.highlight_now()
        super().showEvent(event)

    def highlight_now(self) -> None:
        """Highlight a text loaded while hidden (at once, before the editor paints)."""
        highlighter = self.highlighter
        if highlighter.document() is None:
            self._highlight_later.stop()
            highlighter.setDocument(self.document())
            highlighter.rehighlight()  # at once: Qt's own rehighlight would follow a paint

    def keep_line_endings_of(self, text: str) -> None:
        """``text``'s line breaks are the ones `text` gives back (Qt shows each as one)."""
        self._endings = LineEndings(text)

    def text(self) -> str:
        """The text with the loaded text's own line breaks (CRLF stays CRLF)."""
        return self._endings.restore(self.toPlainText())

    def set_verdicts(self, verdicts: Mapping[str, EmbedVerdict]) -> None:
        """The preview's verdict per embed path; only blocks holding changed paths repaint."""
        self.highlighter.set_verdicts(verdicts)

    def set_reader(self, reader: Reader | None) -> None:
        """The agent being edited: the ``![[`` completer ranks and marks notes by what it can
        read, exactly as the Insert picker does (one search, one delegate)."""
        self.completer.proxy.set_reader(reader)

    def set_embeddable_notes(self, notes: Iterable[EmbeddableNote] | NoteIndex) -> None:
        self.embeddable_model.set_notes(notes)

    def insert_embed(self, display_path: str) -> None:
        """Insert ``![[display_path]]`` at the cursor as one undo step."""
        cursor = self.textCursor()
        cursor.beginEditBlock()
        cursor.insertText(f"{_EMBED_OPEN}{display_path}]]")
        cursor.endEditBlock()
        self.setTextCursor(cursor)
        self.setFocus()

    def go_to_line(self, line: int) -> None:
        """Put the cursor at the start of ``line`` (1-based, clamped to the text) in view."""
        block = self.document().findBlockByNumber(max(0, min(line, self.blockCount()) - 1))
        self.setTextCursor(QTextCursor(block))
        self.centerCursor()
        self.setFocus()

    def completion_prefix(self) -> str | None:
        """What was typed after an open ``![[`` before the cursor; None when not in one."""
        cursor = self.textCursor()
        if cursor.hasSelection():
            return None
        before = cursor.block().text()[: cursor.positionInBlock()]
        start = before.rfind(_EMBED_OPEN)
        if start < 0:
            return None
        typed = before[start + len(_EMBED_OPEN) :]
        if "[" in typed or "]" in typed:
            return None
        return typed

    # ------------------------------------------------------------------ plain paste

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return source.hasText()

    def insertFromMimeData(self, source: QMimeData) -> None:
        # Only text/plain ever lands: pasted HTML or images never become rich content.
        if source.hasText():
            self.insertPlainText(source.text())

    # ------------------------------------------------------------------ keys

    def keyPressEvent(self, event: QKeyEvent) -> None:
        popup_open = self.completer.list_popup.isVisible()
        if popup_open and event.key() in _POPUP_KEYS:
            # The completer's popup takes these (choose or dismiss).
            event.ignore()
            return
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            if event.matches(QKeySequence.StandardKey.Find):
                self.find_requested.emit()
                return
            if event.matches(QKeySequence.StandardKey.Replace) or (
                event.key() == Qt.Key.Key_H
                and event.modifiers() == Qt.KeyboardModifier.ControlModifier
            ):
                self.replace_requested.emit()
                return
        super().keyPressEvent(event)
        # Typing plain text costs no more than a bare editor: only "[" can open a completion.
        if popup_open or event.text() == "[" or event.key() == Qt.Key.Key_Backspace:
            self._update_completion()

    def _update_completion(self) -> None:
        popup = self.completer.list_popup
        prefix = self.completion_prefix()
        if prefix is None or self.completer.set_search(prefix) == 0:
            popup.hide()
            return
        rect = self.cursorRect()
        # Not sizeHintForColumn: it would measure every row of a list of thousands.
        rect.setWidth(popup.minimumWidth())
        self.completer.complete(rect)
        popup.setCurrentIndex(self.completer.completionModel().index(0, 0))

    def on_completion_chosen(self, display_path: str) -> None:
        prefix = self.completion_prefix()
        if prefix is None:
            return
        cursor = self.textCursor()
        cursor.beginEditBlock()
        cursor.movePosition(
            QTextCursor.MoveOperation.Left, QTextCursor.MoveMode.KeepAnchor, len(prefix)
        )
        after = cursor.block().text()[cursor.positionInBlock() + len(prefix) :]
        closed = after.startswith("]]")
        cursor.insertText(display_path if closed else f"{display_path}]]")
        if closed:
            cursor.movePosition(QTextCursor.MoveOperation.Right, QTextCursor.MoveMode.MoveAnchor, 2)
        cursor.endEditBlock()
        self.setTextCursor(cursor)
        self.completer.list_popup.hide()
