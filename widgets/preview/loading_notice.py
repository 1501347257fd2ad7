""" "Loading notes (3 of 7)…" beside the preview while a slow server answers its lookups."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QWidget

LOADING_TASK = "Loading the Task…"
SHOW_AFTER_MS = 300  # a shorter wait reads as instant: a flash of the notice would only distract


class LoadingNotice(QWidget):
    """A busy indicator and a count, shown only when the preview has waited ``SHOW_AFTER_MS``
    on note lookups; hidden as soon as the preview is drawn (or fails)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("LoadingNotice")
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)  # busy: the number of lookups can still grow
        self.bar.setTextVisible(False)
        self.bar.setFixedSize(48, 8)
        self.label = QLabel("")
        self.label.setObjectName("hint")
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 0, 6, 0)
        layout.addWidget(self.bar)
        layout.addWidget(self.label)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SHOW_AFTER_MS)
        self._timer.timeout.connect(self._appear)
        self.hide()

    def on_loading(self, done: int, asked: int) -> None:
        text = f"Loading notes ({done} of {asked})…"
        self.label.setText(text)
        self.setAccessibleName(text)
        if not self.isVisible() and not self._timer.isActive():
            self._timer.start()

    def on_task_loading(self, loading: bool) -> None:
        """The Task itself has not arrived yet (``loading``), or it has."""
        if not loading:
            if self.label.text() == LOADING_TASK:
                self.on_idle()
            return
        self.label.setText(LOADING_TASK)
        self.setAccessibleName(LOADING_TASK)
        if not self.isVisible() and not self._timer.isActive():
            self._timer.start()

    def on_idle(self) -> None:
        self._timer.stop()
        self.hide()

    def text(self) -> str:
        return self.label.text()

    def _appear(self) -> None:
        self.show()
