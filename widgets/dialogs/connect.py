"""Connect to another server: its address and the operator's token, checked before use."""

from __future__ import annotations

from urllib.parse import urlsplit

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from widgets.common.accessible_roles import announce, set_accessible_role
from widgets.dialogs.connect_request import ConnectRequest


def check_server_url(text: str) -> tuple[str | None, str]:
    """(normalised URL, "") for a usable address, or (None, what is wrong with it)."""
    url = text.strip().rstrip("/")
    if not url:
        return None, "Enter the server's address, such as https://taskdesk.example.com."
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return None, "The address must start with http:// or https://."
    if not parts.hostname:
        return None, "The address has no host name."
    try:
        parts.port  # noqa: B018 (raises ValueError for a port that is not a number)
    except ValueError:
        return None, "The port in the address is not a number between 0 and 65535."
    if parts.query or parts.fragment:
        return None, "The address must not carry ? or # parts."
    return url, ""


class ConnectDialog(QDialog):
    """Asks for URL and token. Connect emits ``submitted(ConnectRequest)`` and stays open:
    the window closes it once the server has accepted the token, or shows why not."""

    submitted = Signal(object)

    def __init__(
        self,
        url: str = "",
        token: str = "",
        *,
        keyring_available: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Connect to server")
        self.setModal(True)
        self.request: ConnectRequest | None = None

        self.url_edit = QLineEdit(url)
        self.url_edit.setPlaceholderText("https://taskdesk.example.com")
        self.url_edit.setAccessibleName("Server address")
        self.token_edit = QLineEdit(token)
        self.token_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.token_edit.setPlaceholderText("Your operator token")
        self.token_edit.setAccessibleName("Token")
        self._keyring = keyring_available
        remember = (
            "Remember the token in the system keyring"
            if keyring_available
            else "Keep the token in a file only you can read"
        )
        self.remember_box = QCheckBox(remember)
        self.remember_box.setAccessibleName(remember)
        # With a keyring, keeping the token is the safe default; a file is the operator's choice.
        self.remember_box.setChecked(keyring_available)
        # Said on screen, not in a tooltip alone: what happens to the token with no keyring.
        self.remember_hint = QLabel(
            "No system keyring is available. Unchecked, the token is kept for this session "
            "only; checked, in a file in your settings folder that only you can read."
        )
        self.remember_hint.setObjectName("hint")
        self.remember_hint.setTextFormat(Qt.TextFormat.PlainText)
        self.remember_hint.setWordWrap(True)
        self.remember_hint.setVisible(not keyring_available)
        if not keyring_available:
            self.remember_box.setToolTip(self.remember_hint.text())
            self.remember_box.setAccessibleDescription(self.remember_hint.text())
        self.error_label = QLabel()
        self.error_label.setObjectName("formError")
        self.error_label.setWordWrap(True)
        self.error_label.setTextFormat(Qt.TextFormat.PlainText)
        set_accessible_role(self.error_label, QAccessible.Role.AlertMessage)
        self.error_label.hide()

        form = QFormLayout()
        form.addRow("Server &address", self.url_edit)
        form.addRow("&Token", self.token_edit)
        for field in (self.url_edit, self.token_edit):
            label = form.labelForField(field)
            if isinstance(label, QLabel):
                label.setBuddy(field)

        self.buttons = QDialogButtonBox()
        self.connect_button: QPushButton = self.buttons.addButton(
            "Connect", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.connect_button.setAccessibleName("Connect")
        self.connect_button.setDefault(True)
        self.cancel_button: QPushButton = self.buttons.addButton(
            "Cancel", QDialogButtonBox.ButtonRole.RejectRole
        )
        self.cancel_button.setAccessibleName("Cancel")
        self.connect_button.clicked.connect(self._on_connect)
        self.cancel_button.clicked.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.remember_box)
        layout.addWidget(self.remember_hint)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(460)
        # The first field still to fill: on a later start the address is known, the token not.
        (self.token_edit if url and not token else self.url_edit).setFocus()

    def show_failure(self, text: str, fault: str | None) -> None:
        """A sign-in the server refused or never answered: focus on the field at fault
        (``"token"`` or ``"address"``), its text selected to type over."""
        field = {"token": self.token_edit, "address": self.url_edit}.get(fault or "")
        self.show_error(text, field)
        if field is not None:
            field.selectAll()

    def show_error(self, text: str, field: QLineEdit | None = None) -> None:
        """Show why connecting failed; ``field``, if the fault is in one, gets the error as
        its description and the focus, so a screen reader reads the two together."""
        self.error_label.setText(text)
        self.error_label.show()
        self._fit_error()
        announce(self.error_label)
        for each in (self.url_edit, self.token_edit):
            each.setAccessibleDescription(text if each is field else "")
        if field is not None:
            self.error_label.setBuddy(field)
            field.setFocus()
        self.set_busy(False)

    def _fit_error(self) -> None:
        """Grow the dialog so the wrapped error shows whole: a window's layout doesn't ask a
        wrapping label how tall it gets at its width, so it would squash the fields."""
        label, layout = self.error_label, self.layout()
        if layout is None:
            return
        label.setMinimumHeight(0)
        layout.activate()
        margins = layout.contentsMargins()
        width = max(label.width(), self.width() - margins.left() - margins.right())
        label.setMinimumHeight(label.heightForWidth(width))
        layout.activate()
        needed = layout.minimumSize().height()
        if layout.hasHeightForWidth():  # the wrapped hint and error grow with the text
            needed = max(needed, layout.totalHeightForWidth(self.width()))
        self.resize(self.width(), max(self.height(), needed))

    def set_busy(self, busy: bool) -> None:
        """While signing in: one attempt at a time."""
        self.connect_button.setEnabled(not busy)
        self.connect_button.setText("Connecting…" if busy else "Connect")

    def _on_connect(self) -> None:
        url, problem = check_server_url(self.url_edit.text())
        if url is None:
            self.show_error(problem, self.url_edit)
            return
        token = self.token_edit.text().strip()
        if not token:
            self.show_error(
                "Enter your token. Your server's administrator can give you one.", self.token_edit
            )
            return
        keep = self.remember_box.isChecked()
        self.request = ConnectRequest(url, token, keep, in_file=keep and not self._keyring)
        self.error_label.hide()
        for each in (self.url_edit, self.token_edit):
            each.setAccessibleDescription("")
        self.set_busy(True)
        self.submitted.emit(self.request)
