"""Apply an edit to the selected agents: a line (an embed) under a heading, or a line removed.

It only says what the edit is; the change set's preview (and its Apply) come after it.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QWidget,
)

from app.core.change_plan import (
    BadEditError,
    Edit,
    insert_after_heading_edit,
    remove_line_edit,
)
from widgets.common.plain_text import plain_label

INSERT, REMOVE = "insert", "remove"


class EditSelectedDialog(QDialog):
    """``edit()`` is the edit asked for (``BadEditError`` with the sentence to show);
    ``title()`` names the change set."""

    def __init__(self, agents: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("editSelectedAgents")
        self.setWindowTitle("Apply an edit to the selected agents")
        self.kind = QComboBox(self)
        self.kind.setAccessibleName("Edit")
        self.kind.addItem("Insert a line under a heading", INSERT)
        self.kind.addItem("Remove a line", REMOVE)
        self.heading = QLineEdit(self)
        self.heading.setAccessibleName("Heading")
        self.heading.setPlaceholderText("Work")
        self.line = QLineEdit(self)
        self.line.setAccessibleName("Line")
        self.line.setPlaceholderText("![[org/…/note.md]]")
        self.problem = plain_label("", self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.preview_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.preview_button.setText("Preview…")
        form = QFormLayout(self)
        form.addRow(plain_label(f"{agents:,} agents selected.", self))
        form.addRow("Edit", self.kind)
        form.addRow("Heading", self.heading)
        form.addRow("Line", self.line)
        form.addRow(self.problem)
        form.addRow(self.buttons)
        self.kind.currentIndexChanged.connect(self._follow_kind)
        self.buttons.accepted.connect(self._on_preview)
        self.buttons.rejected.connect(self.reject)
        self._follow_kind()

    def _follow_kind(self, *_: object) -> None:
        self.heading.setEnabled(self.kind.currentData() == INSERT)

    def edit(self) -> Edit:
        if self.kind.currentData() == INSERT:
            return insert_after_heading_edit(self.heading.text(), self.line.text())
        return remove_line_edit(self.line.text())

    def title(self) -> str:
        if self.kind.currentData() == INSERT:
            return f"Insert “{self.line.text().strip()}” under {self.heading.text().strip()}"[:200]
        return f"Remove “{self.line.text().strip()}”"[:200]

    def _on_preview(self) -> None:
        try:
            self.edit()
        except BadEditError as bad:
            self.problem.setText(str(bad))
            return
        self.accept()
