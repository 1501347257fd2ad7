"""The caret's line stays where it was on screen when a banner opens or closes above the editor."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QTimer
from PySide6.QtWidgets import QPlainTextEdit


class CaretAnchor(QObject):
    """Watches ``editor``'s size: when a banner (conflict, offline, draft) shows above it, the
    editor moves down and shrinks, and Qt keeps its first line, so a caret near the bottom
    dropped out of view. The editor then scrolls by as many lines as it moved, so the caret's
    line stays where the operator was looking. A window resized from its bottom edge moves
    nothing, so nothing scrolls.
    """

    def __init__(self, editor: QPlainTextEdit) -> None:
        super().__init__(editor)
        self._editor = editor
        self._caret_y: int | None = None  # the caret's top, in the window's coordinates
        self._pending: int | None = None  # a place not reached yet (the range was short)
        editor.installEventFilter(self)
        editor.cursorPositionChanged.connect(self.remember)
        editor.verticalScrollBar().valueChanged.connect(self._on_scrolled)

    def _on_scrolled(self, _value: int) -> None:
        self.remember()

    def remember(self) -> None:
        """Where the caret is on screen now: the place to keep through the next move."""
        self._caret_y = self._window_y()

    def _window_y(self) -> int | None:
        editor = self._editor
        if not editor.isVisible():
            return None
        viewport = editor.viewport()
        rect = editor.cursorRect()
        if rect.bottom() < 0 or rect.top() > viewport.height():
            return None  # off screen: no place to keep
        return viewport.mapTo(editor.window(), QPoint(0, rect.top())).y()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._editor and event.type() == QEvent.Type.Resize:
            self._keep_place()
        return False

    def _keep_place(self) -> None:
        before = self._pending if self._pending is not None else self._caret_y
        now = self._window_y_anywhere()
        if before is None or now is None:
            self.remember()
            return
        self._scroll_back(before, now)
        if not self._back_at(before):
            # At the end of the text the range grows only once the editor has laid itself
            # out at its new size, after this event (and a second banner may come first):
            # keep the place to go back to, and settle there then.
            self._pending = before
            QTimer.singleShot(0, self, self._settle)
        else:
            self._pending = None
        self.remember()

    def _wholly_in_view(self) -> bool:
        rect = self._editor.cursorRect()
        return rect.top() >= 0 and rect.bottom() <= self._editor.viewport().height()

    def _back_at(self, before: int) -> bool:
        """The caret is within a line of ``before`` on screen."""
        now = self._window_y_anywhere()
        line = max(1, self._editor.fontMetrics().lineSpacing())
        return now is not None and abs(now - before) < line

    def _settle(self) -> None:
        before, self._pending = self._pending, None
        now = self._window_y_anywhere()
        if before is not None and now is not None:
            self._scroll_back(before, now)
        if before is not None and not (self._back_at(before) and self._wholly_in_view()):
            self._editor.ensureCursorVisible()  # as near the place as the text allows
        self.remember()

    def _scroll_back(self, before: int, now: int) -> None:
        """Scroll by the lines the caret moved from ``before`` to ``now`` on screen."""
        line = max(1, self._editor.fontMetrics().lineSpacing())
        lines = round((now - before) / line)
        if lines:
            bar = self._editor.verticalScrollBar()
            bar.setValue(bar.value() + lines)  # valueChanged remembers the new place

    def _window_y_anywhere(self) -> int | None:
        """The caret's top in the window, even when the new size put it out of view."""
        editor = self._editor
        if not editor.isVisible():
            return None
        rect = editor.cursorRect()
        return editor.viewport().mapTo(editor.window(), QPoint(0, rect.top())).y()
