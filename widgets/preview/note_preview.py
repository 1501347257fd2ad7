"""The preview of one embedded note: its rendered text, or why the agent can't reach it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from widgets.common.icons import show_icon
from widgets.common.plain_text import plain_label
from widgets.preview.preview_pane import PreviewPane

NOT_REACHABLE = "This file is not reachable."
NOT_REACHABLE_TABLE = "This table is not reachable."


class NotePreviewDialog(QDialog):
    """Shows sanitised ``html`` (from render_markdown), or ``about`` (what a collection is);
    neither means not reachable, and ``reason`` says why.

    Laid out like the rest of the app: the title with its level tag, the path, then the
    text (scrollable) or one paragraph, all held at the top.
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
        about: str = "",
        unreachable: str = NOT_REACHABLE,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("NotePreviewDialog")
        shown_title = title or path.rsplit("/", 1)[-1]
        self.setWindowTitle(shown_title)
        self.setAccessibleName(shown_title)
        self.reachable = html is not None or bool(about)

        self.title_label = plain_label(shown_title)  # a note's own words
        self.title_label.setObjectName("title")
        self.level_label = plain_label(level)
        self.level_label.setObjectName("levelTag")
        self.level_label.setProperty("level", level)
        self.level_label.setAccessibleName(f"Level: {level}")
        # A tag is as tall as its text: extra height goes to the note, never to the tag.
        self.level_label.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.level_label.setVisible(bool(level))
        self.version_label = plain_label(f"v{version}" if version is not None else "")
        self.version_label.setObjectName("hint")
        self.path_label = plain_label(path)
        self.path_label.setObjectName("hint")
        self.path_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.path_label.setAccessibleName(path)

        self.browser = PreviewPane()
        self.browser.setAccessibleName("Note text")
        self.about_label = plain_label(about)
        self.about_label.setWordWrap(True)
        self.about_label.setAccessibleName(about)
        self.unreachable_label = plain_label()
        self.unreachable_label.setObjectName("danger")
        self.unreachable_label.setWordWrap(True)
        message = unreachable if not reason else f"{unreachable} {reason}".strip()
        self.unreachable_label.setText(message)
        self.unreachable_label.setAccessibleName(message)
        self.unreachable_icon = QLabel()
        show_icon(self.unreachable_icon, "unreachable", 18)
        self.unreachable_icon.setAlignment(Qt.AlignmentFlag.AlignTop)

        self.close_button = QPushButton("Close")
        self.close_button.setAccessibleName("Close")
        self.close_button.setDefault(True)
        self.close_button.clicked.connect(self.accept)

        head = QHBoxLayout()
        head.setSpacing(8)
        head.addWidget(self.title_label)
        head.addWidget(self.level_label, 0, Qt.AlignmentFlag.AlignVCenter)
        head.addStretch(1)
        head.addWidget(self.version_label)
        unreachable_row = QHBoxLayout()
        unreachable_row.addWidget(self.unreachable_icon)
        unreachable_row.addWidget(self.unreachable_label, 1)
        buttons = QHBoxLayout()
        self._buttons = buttons
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.setSpacing(6)
        layout.addLayout(head)
        layout.addWidget(self.path_label)
        layout.addSpacing(4)
        layout.addLayout(unreachable_row)
        layout.addWidget(self.about_label)
        layout.addWidget(self.browser, 1)
        if html is None:
            layout.addStretch(1)  # a paragraph stays at the top; the room is left empty below
        self._sections = QVBoxLayout()  # what others add: who uses the note (add_section)
        layout.addLayout(self._sections)
        layout.addLayout(buttons)

        self.unreachable_icon.setVisible(not self.reachable)
        self.unreachable_label.setVisible(not self.reachable)
        self.about_label.setVisible(self.reachable and html is None)
        self.browser.setVisible(html is not None)
        if html is not None:
            self.resize(560, 480)
            # Notes are small: the pane has no runner, so it parses at once and the dialog
            # opens complete.
            self.browser.show_html(html)
        else:
            self.resize(520, 220)

    def add_section(self, widget: QWidget, stretch: int = 1) -> None:
        """A part shown below the note's text (who uses it)."""
        self._sections.addWidget(widget, stretch)

    def add_button(self, button: QPushButton) -> None:
        """A button left of Close (Edit, Delete)."""
        self._buttons.insertWidget(self._buttons.count() - 1, button)
