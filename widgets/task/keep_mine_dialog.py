"""Keep mine, asked first: the changes of theirs it throws away, shown before it publishes."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from app.core.diff_model import SideBySide
from widgets.versions.diff_view import DiffView


def dropped_text(count: int, version: int, who: str) -> str:
    changes = "1 change" if count == 1 else f"{count} changes"
    # Both sides hold the operator's own edits: the left is not "their text" but yours with
    # their changes put in, so each marked change is exactly one that Keep mine drops.
    return (
        f"Keeping yours throws away {changes} of v{version} by {who or 'someone'}. On the left, "
        "your text with those changes put in; on the right, your text alone, as Keep mine "
        "publishes it. Each marked change is one of theirs that is dropped. Their version "
        "stays in the version history. Merge keeps both."
    )


def left_title(version: int, who: str) -> str:
    """The left side's title: whose text it is, and what was put in."""
    return f"Yours, with the changes of v{version} by {who or 'someone'}"


RIGHT_TITLE = "Yours alone, as Keep mine publishes it"


class KeepMineDialog(QDialog):
    """Their changes beside my text; Keep mine, Merge instead, or Cancel (the default)."""

    def __init__(
        self,
        model: SideBySide,
        with_theirs: str,
        mine: str,
        summary: str,
        their_title: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keep mine")
        self.summary_label = QLabel(summary)
        self.summary_label.setWordWrap(True)
        self.summary_label.setTextFormat(Qt.TextFormat.PlainText)  # a name from the server
        self.diff_view = DiffView()
        self.diff_view.set_model(model, with_theirs, mine, their_title, RIGHT_TITLE)
        self.buttons = QDialogButtonBox()
        self.confirm_button = self.buttons.addButton(
            "&Keep mine", QDialogButtonBox.ButtonRole.DestructiveRole
        )
        self.merge_button = self.buttons.addButton("Mer&ge", QDialogButtonBox.ButtonRole.ActionRole)
        self.cancel_button = self.buttons.addButton(
            "&Cancel", QDialogButtonBox.ButtonRole.RejectRole
        )
        for button in (self.confirm_button, self.merge_button, self.cancel_button):
            # The banner's mnemonics (Alt+K, Alt+G): the same keys answer the question.
            button.setAccessibleName(button.text().replace("&", ""))
            button.setAutoDefault(False)  # focus on a button must not make it the default
        # Throwing work away is never what Return does.
        self.cancel_button.setDefault(True)
        self.confirm_button.clicked.connect(self.accept)
        self.merge_button.clicked.connect(lambda: self.done(2))
        self.cancel_button.clicked.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.diff_view, 1)
        layout.addWidget(self.buttons)
        self.resize(1000, 600)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # Focus starts on the safe answer, as Return does: Space or Return there cancels.
        self.cancel_button.setFocus(Qt.FocusReason.OtherFocusReason)
