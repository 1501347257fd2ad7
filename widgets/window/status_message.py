"""The status bar's message in its own space left of Ln/Col: elided to fit, whole in its tooltip."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QStatusBar

from widgets.common.plain_text import inert_tooltip

MIN_WIDTH = 120
"""Enough to read that there is a message; the rest is in the tooltip."""


class StatusMessage(QLabel):
    """Shows the status bar's current message (``showMessage``), never under the permanent
    labels: QStatusBar paints a long message up to Ln/Col without an ellipsis, so a cut
    sentence looked whole. Here a message too long for the room ends in "…" and the whole
    text is the tooltip and the accessible name.

    It is the first permanent widget, stretched: the bar's own painting then has no room
    left of it, and the message shows only here.
    """

    def __init__(self, status_bar: QStatusBar) -> None:
        super().__init__()
        self.setObjectName("statusMessage")
        self.setTextFormat(Qt.TextFormat.PlainText)  # server and workspace text
        # Ignored: a long message must not widen the window or push the labels right.
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._full = ""
        status_bar.insertPermanentWidget(0, self, 1)
        status_bar.messageChanged.connect(self.show_full_text)
        self.show_full_text(status_bar.currentMessage())

    def full_text(self) -> str:
        return self._full

    def show_full_text(self, text: str) -> None:
        self._full = text
        self.setToolTip(inert_tooltip(text))  # a tooltip takes rich text by default
        self.setAccessibleName(text or "No message")
        self._elide()

    def is_elided(self) -> bool:
        return self.text() != self._full

    def minimumSizeHint(self) -> QSize:
        return QSize(MIN_WIDTH, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:
        return QSize(MIN_WIDTH, super().sizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        room = self.contentsRect().width()
        shown = self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight, room)
        if shown != self.text():
            self.setText(shown)
