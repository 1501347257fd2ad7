"""Help › About: the version, what it runs on and where it keeps its files, for problem reports."""

from __future__ import annotations

import platform
from collections.abc import Mapping

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt, qVersion
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app import version
from app.connect import paths

SUMMARY = "The desktop editor for the standing instructions (the Task) of your agents."


def about_details(env: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """(label, value) rows: what an operator pastes into a problem report.

    ``env`` stands in for the environment (TASKDESK_HOME) when a test asks.
    """
    return [
        ("Taskdesk", version()),
        ("Qt", qVersion()),
        ("PySide6", pyside_version),
        ("Python", f"{platform.python_version()} ({platform.python_implementation()})"),
        ("System", platform.platform(terse=True)),
        ("Settings", str(paths.config_dir(env))),
        ("Drafts and local workspace", str(paths.data_dir(env))),
        ("Cache", str(paths.cache_dir(env))),
        ("Logs", str(paths.log_dir(env))),
    ]


def details_text(rows: list[tuple[str, str]]) -> str:
    return "".join(f"{label}: {value}\n" for label, value in rows)


class AboutDialog(QDialog):
    """The rows of ``about_details``, each selectable, with Copy details and Close."""

    def __init__(self, parent: QWidget | None = None, *, env: Mapping[str, str] | None = None):
        super().__init__(parent)
        self.setObjectName("AboutDialog")
        self.setWindowTitle("About Taskdesk")
        self.rows = about_details(env)
        title = QLabel(f"Taskdesk {version()}")
        title.setObjectName("aboutTitle")
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.4)
        font.setBold(True)
        title.setFont(font)
        summary = QLabel(SUMMARY)
        summary.setWordWrap(True)
        form = QFormLayout()
        self.value_labels: dict[str, QLabel] = {}
        for label, value in self.rows[1:]:
            shown = QLabel(value)
            shown.setTextFormat(Qt.TextFormat.PlainText)  # a path is never markup
            shown.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            shown.setAccessibleName(label)
            form.addRow(f"{label}:", shown)
            self.value_labels[label] = shown
        self.buttons = QDialogButtonBox()
        self.copy_button = self._button("&Copy details", QDialogButtonBox.ButtonRole.ActionRole)
        self.close_button = self._button("Close", QDialogButtonBox.ButtonRole.RejectRole)
        self.close_button.setDefault(True)
        self.copy_button.clicked.connect(self.copy_details)
        self.close_button.clicked.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addWidget(summary)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(520)

    def _button(self, label: str, role: QDialogButtonBox.ButtonRole) -> QPushButton:
        button = self.buttons.addButton(label, role)
        button.setAccessibleName(label.replace("&", ""))
        return button

    def copy_details(self) -> None:
        """Put every row on the clipboard as ``label: value`` lines, ready for a report."""
        QGuiApplication.clipboard().setText(details_text(self.rows))


def open_about(parent: QWidget) -> AboutDialog:
    """Show the dialog (window-modal, not blocking); returned so tests can press its buttons."""
    dialog = AboutDialog(parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog
