"""Small confirmation dialogs that expose their buttons, so every path can be pressed in tests."""

from __future__ import annotations

from enum import Enum

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.diff_model import LineCounts
from app.render.links import classify_link, shown_address


class LeaveChoice(Enum):
    SAVE = "save"
    DISCARD = "discard"
    CANCEL = "cancel"


class _ButtonDialog(QDialog):
    """A message above a row of buttons; the pressed button's role becomes the choice."""

    def __init__(self, title: str, text: str, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setModal(True)
        self.message_label = QLabel(text)
        self.message_label.setWordWrap(True)
        self.message_label.setTextFormat(Qt.TextFormat.PlainText)  # names are not markup
        self.message_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox()
        layout = QVBoxLayout(self)
        layout.addWidget(self.message_label)
        self._extra = QVBoxLayout()
        layout.addLayout(self._extra)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(420)
        self._safe_button: QPushButton | None = None

    def _keep_default(self, safe: QPushButton) -> None:
        """``safe`` is the default and focused button however the dialog opens, so Return
        (or Space) never does the destructive thing. Without this, ``open()`` focuses the
        first button, which then becomes the default as an auto-default button."""
        for button in self.buttons.buttons():
            if isinstance(button, QPushButton):
                button.setAutoDefault(False)
                button.setDefault(False)
        safe.setDefault(True)
        self._safe_button = safe

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._safe_button is not None:
            self._safe_button.setFocus(Qt.FocusReason.OtherFocusReason)

    def _button(self, label: str, role: QDialogButtonBox.ButtonRole) -> QPushButton:
        button = self.buttons.addButton(label, role)
        button.setAccessibleName(label.replace("&", ""))
        return button


class ConfirmLeaveDialog(_ButtonDialog):
    """Unsaved edits are about to be left: Save, Discard or Cancel."""

    def __init__(self, agent_name: str, action: str, parent: QWidget | None = None) -> None:
        super().__init__(
            "Unsaved changes",
            f"The Task of {agent_name} has unsaved changes. Save them before you {action}?",
            parent,
        )
        self.choice = LeaveChoice.CANCEL
        self.save_button = self._button("&Save", QDialogButtonBox.ButtonRole.AcceptRole)
        self.discard_button = self._button("&Discard", QDialogButtonBox.ButtonRole.DestructiveRole)
        self.cancel_button = self._button("Cancel", QDialogButtonBox.ButtonRole.RejectRole)
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(lambda: self._choose(LeaveChoice.SAVE))
        self.discard_button.clicked.connect(lambda: self._choose(LeaveChoice.DISCARD))
        self.cancel_button.clicked.connect(lambda: self._choose(LeaveChoice.CANCEL))

    def _choose(self, choice: LeaveChoice) -> None:
        self.choice = choice
        self.done(QDialog.DialogCode.Rejected if choice is LeaveChoice.CANCEL else 1)


class ConfirmRestoreDialog(_ButtonDialog):
    """Restore an earlier version as a new live version, after seeing what changes."""

    def __init__(
        self, version: int, live_version: int, summary: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(
            f"Restore version {version}",
            f"Version {version} becomes the live Task as version {live_version + 1}. "
            "The current text stays in the version history.",
            parent,
        )
        self.summary_label = QLabel(summary)
        self.summary_label.setObjectName("diffSummary")
        self.summary_label.setWordWrap(True)
        self._extra.addWidget(self.summary_label)
        self.restore_button = self._button(
            f"&Restore v{version}", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.cancel_button = self._button("Cancel", QDialogButtonBox.ButtonRole.RejectRole)
        self._keep_default(self.cancel_button)
        self.restore_button.clicked.connect(self.accept)
        self.cancel_button.clicked.connect(self.reject)


class OpenLinkDialog(_ButtonDialog):
    """A link in the preview leaves Taskdesk: show the full address before opening it."""

    def __init__(self, url: str, parent: QWidget | None = None) -> None:
        action = classify_link(url)
        # A disguised address (bidi or zero-width characters) says so, and shows them escaped.
        text = action.reason if action.kind == "disguised" else "This link opens outside Taskdesk:"
        super().__init__("Open link in browser", text, parent)
        self.url = url
        self.address_label = QLabel(shown_address(url))
        self.address_label.setObjectName("fullAddress")
        self.address_label.setWordWrap(True)
        # Full address, selectable, never elided: the operator checks where it really goes.
        self.address_label.setTextFormat(Qt.TextFormat.PlainText)
        self.address_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._extra.addWidget(self.address_label)
        self.open_button = self._button("&Open in browser", QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self._button("Cancel", QDialogButtonBox.ButtonRole.RejectRole)
        self._keep_default(self.cancel_button)
        self.open_button.clicked.connect(self.accept)
        self.cancel_button.clicked.connect(self.reject)


class ConfirmDropDialog(_ButtonDialog):
    """An action that replaces the operator's edits (Use theirs): confirm or cancel."""

    def __init__(self, title: str, text: str, confirm_label: str, parent: QWidget | None = None):
        super().__init__(title, text, parent)
        self.confirm_button = self._button(confirm_label, QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self._button("Cancel", QDialogButtonBox.ButtonRole.RejectRole)
        self._keep_default(self.cancel_button)
        self.confirm_button.clicked.connect(self.accept)
        self.cancel_button.clicked.connect(self.reject)


class CompareDialog(QDialog):
    """Their text beside mine during a conflict, with the three ways out of it: Merge (both
    people's changes, the default), Keep mine and Use theirs."""

    def __init__(self, their_title: str, parent: QWidget | None = None) -> None:
        from widgets.versions.diff_view import DiffView  # only when a conflict is compared

        super().__init__(parent)
        self.setWindowTitle("Compare with theirs")
        self.diff_view = DiffView()
        self.diff_view.set_titles(their_title, "Mine (unsaved)")
        self.buttons = QDialogButtonBox()
        self.merge_button = self.buttons.addButton("&Merge", QDialogButtonBox.ButtonRole.ApplyRole)
        self.merge_button.setToolTip("Combine their changes and yours in the editor")
        self.merge_button.setDefault(True)  # as on the conflict banner: it keeps both
        self.keep_mine_button = self.buttons.addButton(
            "&Keep mine", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.use_theirs_button = self.buttons.addButton(
            "&Use theirs", QDialogButtonBox.ButtonRole.DestructiveRole
        )
        self.close_button = self.buttons.addButton("&Close", QDialogButtonBox.ButtonRole.RejectRole)
        every = (
            self.merge_button,
            self.keep_mine_button,
            self.use_theirs_button,
            self.close_button,
        )
        for button in every:
            button.setAccessibleName(button.text().replace("&", ""))
            button.setAutoDefault(False)  # focus moving never makes another the default
        self.merge_button.setDefault(True)
        self.close_button.clicked.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.diff_view, 1)
        layout.addWidget(self.buttons)
        self.resize(1100, 640)


def diff_summary(counts: LineCounts) -> str:
    """ "1 line changed, 4 removed" for the restore confirmation: a line replaced by another
    is one changed line, not one added and one removed."""
    if not (counts.changed or counts.added or counts.removed):
        return "The texts are the same."
    shown = [
        (n, word)
        for n, word in (
            (counts.changed, "changed"),
            (counts.added, "added"),
            (counts.removed, "removed"),
        )
        if n
    ]
    (first, word), rest = shown[0], shown[1:]
    parts = [f"{first} line{'s' if first != 1 else ''} {word}", *(f"{n} {w}" for n, w in rest)]
    return "Compared with the live Task: " + ", ".join(parts) + "."
