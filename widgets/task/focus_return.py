"""Focus goes back to the Task when a banner holding it goes away, never to the next widget."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication, QWidget


class FocusReturn(QObject):
    """Watches ``banners``: when one hides while focus is in it (Keep mine, Use theirs,
    Merge, Recover, Discard, a closed message), focus goes to ``target()``, the part of
    the Task on screen. Qt would otherwise move it to the next widget in the chain (the
    unreachable-embeds list), where the operator's next keystrokes would be lost."""

    def __init__(
        self, banners: Iterable[QWidget], target: Callable[[], QWidget], parent: QObject
    ) -> None:
        super().__init__(parent)
        self._target = target
        for banner in banners:
            banner.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Hide and isinstance(watched, QWidget):
            # The window's focus widget, even while a dialog is active (Use theirs asks
            # first): it is where focus goes back to when the dialog closes.
            focused = watched.window().focusWidget() or QApplication.focusWidget()
            if focused is not None and (focused is watched or watched.isAncestorOf(focused)):
                # Before Qt moves focus on: it only does so when focus is still inside.
                self._target().setFocus(Qt.FocusReason.OtherFocusReason)
        return super().eventFilter(watched, event)
