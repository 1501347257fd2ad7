"""The local workspace can't be opened: say why, and offer a fresh one or another server."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPushButton, QVBoxLayout, QWidget

from widgets.common.plain_text import plain_label


class DamagedWorkspaceDialog(QDialog):
    """``fresh_requested`` (start from a fresh local workspace, the damaged files kept
    aside) or ``connect_requested`` (another server); Close leaves the window as it is.

    Close is the default and focused button: Return never moves files by accident.
    """

    fresh_requested = Signal()
    connect_requested = Signal()

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("The local workspace can't be opened")
        self.setModal(True)
        self.message_label = plain_label(text)  # holds paths and the server's own words
        self.message_label.setWordWrap(True)
        self.message_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox()
        self.fresh_button = self._button(
            "Start a &fresh local workspace", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.connect_button = self._button(
            "&Connect to server…", QDialogButtonBox.ButtonRole.ActionRole
        )
        self.close_button = self._button("Close", QDialogButtonBox.ButtonRole.RejectRole)
        for button in (self.fresh_button, self.connect_button):
            button.setAutoDefault(False)
        self.close_button.setDefault(True)
        self.fresh_button.clicked.connect(self._fresh)
        self.connect_button.clicked.connect(self._connect)
        self.close_button.clicked.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message_label)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(480)

    def _button(self, label: str, role: QDialogButtonBox.ButtonRole) -> QPushButton:
        button = self.buttons.addButton(label, role)
        button.setAccessibleName(label.replace("&", ""))
        return button

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.close_button.setFocus()  # open() focuses the first button otherwise

    def _fresh(self) -> None:
        self.accept()
        self.fresh_requested.emit()

    def _connect(self) -> None:
        self.accept()
        self.connect_requested.emit()
