"""The preview of one embedded note: its rendered text, or why the agent can't reach it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from widgets.common.icons import show_icon
from widgets.common.plain_text import plain_label
from widgets.preview.preview_pane import PreviewPane

NOT_REACHABLE = "This file is not reachable."


class NotePreviewDialog(QDialog):
    """Shows sanitised ``html`` (from render_markdown); ``html`` None means not reachable.

    Links inside the note go through the same pane as the Task preview, so they load
    nothing and are routed the same way (``browser.embed_clicked`` and friends).
    """

    def __init__(
        self,
        title: str,
        path: str,
        level: str,
        html: str | None,
        version: int | None,
        parent: QWidget | None = None,
        *,
        reason: str = "",
    ) -> None:
        super().__init__(parent)
        self.setObjectName("NotePreviewDialog")
        shown_title = title or path.rsplit("/", 1)[-1]
        self.setWindowTitle(shown_title)
        self.setAccessibleName(shown_title)
        self.reachable = html is not None

        self.title_label = plain_label(shown_title)  # a note's own words
        self.title_label.setObjectName("title")
        self.level_label = plain_label(level)
        self.level_label.setObjectName("levelTag")
        self.level_label.setProperty("level", level)
        self.level_label.setAccessibleName(f"Level: {level}")
        self.version_label = plain_label(f"v{version}" if version is not None else "")
        self.version_label.setObjectName("hint")
        self.path_label = plain_label(path)
        self.path_label.setObjectName("hint")
        self.path_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.path_label.setAccessibleName(path)

        self.browser = PreviewPane()
        self.browser.setAccessibleName("Note text")
        self.unreachable_label = QLabel()
        self.unreachable_label.setObjectName("danger")
        self.unreachable_label.setWordWrap(True)
        message = NOT_REACHABLE if not reason else f"{NOT_REACHABLE} {reason}"
        self.unreachable_label.setText(message)
        self.unreachable_label.setAccessibleName(message)
        self.unreachable_icon = QLabel()
        show_icon(self.unreachable_icon, "unreachable", 18)

        self.close_button = QPushButton("Close")
        self.close_button.setAccessibleName("Close")
        self.close_button.setDefault(True)
        self.close_button.clicked.connect(self.accept)

        head = QHBoxLayout()
        head.addWidget(self.title_label)
        head.addWidget(self.level_label)
        head.addStretch(1)
        head.addWidget(self.version_label)
        unreachable_row = QHBoxLayout()
        unreachable_row.addWidget(self.unreachable_icon)
        unreachable_row.addWidget(self.unreachable_label, 1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addLayout(head)
        layout.addWidget(self.path_label)
        layout.addLayout(unreachable_row)
        layout.addWidget(self.browser, 1)
        layout.addLayout(buttons)
        self.resize(560, 480)

        self.unreachable_icon.setVisible(not self.reachable)
        self.unreachable_label.setVisible(not self.reachable)
        self.browser.setVisible(self.reachable)
        if html is not None:
            # Notes are small: the pane has no runner, so it parses at once and the dialog
            # opens complete.
            self.browser.show_html(html)
