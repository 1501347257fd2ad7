"""Lays a large preview document out in slices, so the GUI thread never stalls on it."""

from __future__ import annotations

import time

import shiboken6
from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtGui import QTextDocument


class LayoutPacer(QObject):
    """Lays a large preview document out in slices of a few milliseconds between events.

    Qt's own lazy layout runs on a 10 ms timer in steps that double up to 200,000
    characters, so its later steps on a 256 KB preview stall the GUI thread for tens of
    milliseconds. While pacing, the layout's own timer events are held back; ``finished``
    fires once the whole document is laid out.
    """

    finished = Signal()
    SLICE_SECONDS = 0.004
    FIRST_STEP = 2_000

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._slice)
        self._document: QTextDocument | None = None
        self._layout: QObject | None = None
        self._position = 0
        self._step = self.FIRST_STEP

    def start(self, document: QTextDocument) -> None:
        self.stop()
        self._document = document
        self._layout = document.documentLayout()
        self._layout.installEventFilter(self)
        self._position = 0
        self._step = self.FIRST_STEP
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        if self._layout is not None and shiboken6.isValid(self._layout):
            self._layout.removeEventFilter(self)
        self._layout = None
        self._document = None

    def is_running(self) -> bool:
        return self._timer.isActive()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Timer and watched is self._layout:
            return True
        return super().eventFilter(watched, event)

    def _slice(self) -> None:
        document = self._document
        if document is None or not shiboken6.isValid(document):
            self.stop()
            return
        layout = document.documentLayout()
        count = document.characterCount()
        started = time.perf_counter()
        block = document.findBlock(min(self._position + self._step, count - 1))
        layout.blockBoundingRect(block)  # lays the document out up to the end of ``block``
        self._position = block.position() + block.length()
        elapsed = time.perf_counter() - started
        if elapsed < self.SLICE_SECONDS / 2:
            self._step *= 2
        elif elapsed > self.SLICE_SECONDS:
            self._step = max(self._step // 2, 200)
        if self._position >= count:
            self.stop()
            # Qt sends the final size on the timer held back above; send it now instead.
            layout.documentSizeChanged.emit(layout.documentSize())
            self.finished.emit()
