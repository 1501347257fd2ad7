"""Edit › Go to Line: a line number, checked against the Task's length."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QWidget,
)


class GoToLineDialog(QDialog):
    """A line number between 1 and ``last``; ``go_button`` and ``cancel_button`` for tests."""

    def __init__(self, current: int, last: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Go to Line")
        self.setModal(True)
        self.line_box = QSpinBox()
        self.line_box.setRange(1, max(1, last))
        self.line_box.setValue(min(max(1, current), max(1, last)))
        self.line_box.setAccessibleName(f"Line (1 to {max(1, last)})")
        label = QLabel(f"&Line (1 to {max(1, last)}):")
        label.setBuddy(self.line_box)
        buttons = QDialogButtonBox()
        self.go_button: QPushButton = buttons.addButton(
            "&Go", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.cancel_button: QPushButton = buttons.addButton(
            "Cancel", QDialogButtonBox.ButtonRole.RejectRole
        )
        self.go_button.setAccessibleName("Go")
        self.cancel_button.setAccessibleName("Cancel")
        self.go_button.setDefault(True)
        self.go_button.clicked.connect(self.accept)
        self.cancel_button.clicked.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(label, self.line_box)
        form.addRow(buttons)
        self.line_box.selectAll()
        self.line_box.setFocus()

    def line(self) -> int:
        return self.line_box.value()
