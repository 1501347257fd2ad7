"""The status bar's permanent part: the message, which server, who is signed in, Ln/Col in Edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QStatusBar

from widgets.window.status_message import StatusMessage

if TYPE_CHECKING:  # the records load with the first connection, not before the first paint
    from app.connect.server_features import ServerFeatures
    from app.core.models import Me


def _label(name: str) -> QLabel:
    label = QLabel()
    label.setObjectName(name)
    label.setTextFormat(Qt.TextFormat.PlainText)  # a server's address and a person's name
    return label


class StatusLine(QObject):
    """Always in view (permanent widgets outlive the bar's passing messages): ``message``
    (the current message, in its own space), ``server_label`` ("Local workspace" or the
    address), ``person_label`` (who is signed in) and, while the editor is on screen,
    ``position_label`` ("Ln 3, Col 14")."""

    def __init__(self, status_bar: QStatusBar) -> None:
        super().__init__(status_bar)
        self.message = StatusMessage(status_bar)
        self.position_label = _label("cursorPosition")
        self.server_label = _label("serverName")
        self.person_label = _label("signedIn")
        self.position_label.hide()
        self.server_label.setText("Not connected")
        self.server_label.setAccessibleName("Server: not connected")
        for label in (self.position_label, self.server_label, self.person_label):
            status_bar.addPermanentWidget(label)
        self._editor: QPlainTextEdit | None = None

    def show_connection(
        self, url: str, *, local: bool, me: Me, features: ServerFeatures, offline: bool
    ) -> None:
        where = "Local workspace" if local else url
        if offline:
            where += " (offline)"
        self.server_label.setText(where)
        self.server_label.setToolTip("" if local else url)
        self.server_label.setAccessibleName(f"Server: {where}")
        who = me.name if features.me else "an operator (assumed)"
        role = "" if me.type == "operator" or not features.me else f" ({me.type})"
        self.person_label.setText(f"Signed in as {who}{role}")
        self.person_label.setAccessibleName(self.person_label.text())

    def follow_editor(self, editor: QPlainTextEdit) -> None:
        """Line and column of ``editor``'s cursor, shown while the editor is."""
        self._editor = editor
        editor.cursorPositionChanged.connect(self._show_position)
        editor.installEventFilter(self)
        self._show_position()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._editor and event.type() in (QEvent.Type.Show, QEvent.Type.Hide):
            self._show_position()
        return super().eventFilter(watched, event)

    def _show_position(self) -> None:
        editor = self._editor
        if editor is None or not editor.isVisible():
            self.position_label.hide()
            return
        cursor = editor.textCursor()
        text = f"Ln {cursor.blockNumber() + 1}, Col {cursor.positionInBlock() + 1}"
        self.position_label.setText(text)
        self.position_label.setAccessibleName(
            f"Line {cursor.blockNumber() + 1}, column {cursor.positionInBlock() + 1}"
        )
        self.position_label.show()
