"""The Preview mode: the rendered preview, or the text exactly as the agent gets it."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QAccessible, QFontDatabase
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QPlainTextEdit,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.desk.runner import Runner
from widgets.common.accessible_roles import set_accessible_role
from widgets.common.segments import SegmentButton
from widgets.preview.loading_notice import SHOW_AFTER_MS, LoadingNotice
from widgets.preview.preview_pane import PreviewPane


class PreviewPanel(QWidget):
    """The Preview mode: Rendered (a ``PreviewPane``) or As the agent gets it (exact text).

    ``runner`` lays large previews out off the GUI thread (see ``PreviewPane``).
    """

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        runner: Runner | None = None,
        pane: PreviewPane | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("PreviewPanel")
        self.pane = pane if pane is not None else PreviewPane(runner=runner)
        self.agent_text_view = QPlainTextEdit()
        self.agent_text_view.setReadOnly(True)
        self.agent_text_view.setAccessibleName("As the agent gets it")
        self.agent_text_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.agent_text_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self._agent_text: str | None = None
        self._placeholder = ""
        self._placeholder_timer = QTimer(self)
        self._placeholder_timer.setSingleShot(True)
        self._placeholder_timer.setInterval(SHOW_AFTER_MS)  # switching agents doesn't flash
        self._placeholder_timer.timeout.connect(self._show_placeholder)

        self.rendered_button = SegmentButton()
        self.rendered_button.setText("Rendered")
        self.rendered_button.setAccessibleName("Rendered")
        self.agent_view_button = SegmentButton()
        self.agent_view_button.setText("As the agent gets it")
        self.agent_view_button.setAccessibleName("As the agent gets it")
        self.mode_group = QButtonGroup(self)
        self.mode_group.setExclusive(True)
        for button in (self.rendered_button, self.agent_view_button):
            button.setCheckable(True)
            button.setObjectName("segment")
            self.mode_group.addButton(button)
        self.rendered_button.setChecked(True)

        self.stack = QStackedWidget()
        # A document to screen readers (a read-only text browser alone reads as a label).
        set_accessible_role(self.stack, QAccessible.Role.Document)
        self.stack.setAccessibleName("Preview")
        self.stack.addWidget(self.pane)
        self.stack.addWidget(self.agent_text_view)
        toggle = QHBoxLayout()
        toggle.setSpacing(0)
        toggle.addWidget(self.rendered_button)
        toggle.addWidget(self.agent_view_button)
        toggle.addStretch(1)
        self.loading_notice = LoadingNotice()
        toggle.addWidget(self.loading_notice)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(toggle)
        layout.addWidget(self.stack, 1)

        # The pane's signals, re-offered here so the window can wire either.
        self.embed_clicked = self.pane.embed_clicked
        self.external_link_requested = self.pane.external_link_requested
        self.link_blocked = self.pane.link_blocked
        self.edit_requested = self.pane.edit_requested
        self.rendered_button.toggled.connect(self._on_mode_toggled)

    def show_preview(self, html: str, agent_text: str) -> None:
        """Show a fresh expansion: rendered HTML and ``expansion.text`` exactly."""
        self._placeholder_timer.stop()
        self.agent_text_view.setPlaceholderText("")
        self.pane.show_html(html)
        self.set_agent_text(agent_text)

    def show_glimpse(self, html: str) -> None:
        """A long Task's first screenful, while its whole preview is made: shown only when
        the reader is at the top (it is what they would see there)."""
        if self.pane.scroll_fraction() == 0.0:
            self._placeholder_timer.stop()
            self.pane.show_html(html)

    def expect_preview(self, reason: str) -> None:
        """The preview shown is not this Task's (another agent opens): unless this one's comes
        within a moment, both views say ``reason`` instead of showing the last agent's."""
        self._placeholder = reason
        if self.pane.is_placeholder():
            self._show_placeholder()  # already waiting: now for the next step
        elif not self._placeholder_timer.isActive():
            self._placeholder_timer.start()

    def _show_placeholder(self) -> None:
        self.pane.show_placeholder(self._placeholder)
        self._agent_text = None
        self.agent_text_view.clear()
        # A placeholder, not text: nothing to copy as if the agent got it.
        self.agent_text_view.setPlaceholderText(self._placeholder)

    def set_agent_text(self, text: str) -> None:
        if self.stack.currentWidget() is self.agent_text_view:
            self._set_agent_text_now(text)
        else:
            self._agent_text = text  # applied when that view is chosen

    def show_agent_text(self, on: bool = True) -> None:
        (self.agent_view_button if on else self.rendered_button).setChecked(True)

    def _on_mode_toggled(self, rendered: bool) -> None:
        self.stack.setCurrentWidget(self.pane if rendered else self.agent_text_view)
        if not rendered and self._agent_text is not None:
            self._set_agent_text_now(self._agent_text)

    def _set_agent_text_now(self, text: str) -> None:
        self._agent_text = None
        if self.agent_text_view.toPlainText() != text:
            bar = self.agent_text_view.verticalScrollBar()
            value = bar.value()
            self.agent_text_view.setPlainText(text)
            bar.setValue(value)
