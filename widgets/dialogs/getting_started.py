"""Help › Getting started: the first steps in a few lines, as the README's "Try this first"."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

STEPS = (
    "Pick an agent on the left: its Task opens in Preview, exactly as a run gets it, "
    "embedded notes inlined.",
    "Double-click the text, or press Edit (Ctrl+Shift+E), to edit it. Type ![[ to embed a "
    "note, or use Insert › Note (Ctrl+Shift+N).",
    "Ctrl+S saves as a new version. If someone saved meanwhile, the banner offers Merge, "
    "which keeps both people's changes.",
    "View › References (Ctrl+Shift+R) lists every embed by hop and why a marker is one; "
    "View › Versions (Ctrl+Shift+H) compares any two versions and restores one.",
    "View › Start a run… (Ctrl+Alt+R) asks first, then records what the agent gets now.",
    "Help › Keyboard shortcuts (F1) lists every shortcut.",
)


class GettingStartedDialog(QDialog):
    """The steps as a numbered list (plain text), and Close."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Getting started")
        self.setAccessibleName("Getting started")
        text = "\n\n".join(f"{n}. {step}" for n, step in enumerate(STEPS, 1))
        self.steps_label = QLabel(text)
        self.steps_label.setTextFormat(Qt.TextFormat.PlainText)
        self.steps_label.setWordWrap(True)
        self.steps_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.close_button = self.buttons.button(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.steps_label)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(520)
