"""The review's two small questions: a hunk's text as the operator wants it, a decline's reason."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from widgets.common.plain_text import plain_label

REASON_MAX = 2000


class HunkEditDialog(QDialog):
    """Edit one hunk's lines; ``text()`` once accepted. Its buttons are exposed for tests."""

    def __init__(self, number: int, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Edit change {number}")
        self.editor = QPlainTextEdit()
        self.editor.setPlainText(text)
        self.editor.setAccessibleName(f"Change {number} as it will be published")
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert ok is not None
        ok.setText("Use this text")
        self.ok_button: QPushButton = ok
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(plain_label("These lines replace the change's lines in what you publish."))
        layout.addWidget(self.editor, 1)
        layout.addWidget(buttons)
        self.resize(560, 320)

    def text(self) -> str:
        return self.editor.toPlainText()


class DeclineDialog(QDialog):
    """Why the proposal is declined, for its author; Decline stays off until there is one."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Decline the proposal")
        self.reason = QPlainTextEdit()
        self.reason.setAccessibleName("Reason, for the author")
        self.reason.setPlaceholderText("Why not, in a sentence or two (the author reads it)")
        self.count = plain_label("")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.decline_button = buttons.addButton("Decline", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(plain_label(f"Decline “{title}”?"))
        layout.addWidget(self.reason, 1)
        layout.addWidget(self.count)
        layout.addWidget(buttons)
        self.reason.textChanged.connect(self.on_reason_changed)
        self.on_reason_changed()

    def reason_text(self) -> str:
        return self.reason.toPlainText().strip()

    def on_reason_changed(self) -> None:
        size = len(self.reason_text())
        self.decline_button.setEnabled(1 <= size <= REASON_MAX)
        self.count.setText(
            f"{size:,} of {REASON_MAX:,} characters" if size <= REASON_MAX else
            f"{size - REASON_MAX:,} characters too long: a reason is at most {REASON_MAX:,}."
        )  # fmt: skip
