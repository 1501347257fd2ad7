"""F6: from the Task to the agents list, and back to where the operator was."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QWidget


class SidebarJump(QObject):
    """``action`` moves focus into ``sidebar_list``; pressed there, it goes back to the
    widget focus came from (or ``work_target()``, the part of the Task on screen)."""

    def __init__(
        self,
        action: QAction,
        sidebar: QWidget,
        sidebar_list: QWidget,
        work_target: Callable[[], QWidget | None],
    ) -> None:
        super().__init__(action)
        self._sidebar = sidebar
        self._list = sidebar_list
        self._work_target = work_target
        self._came_from: QWidget | None = None
        action.triggered.connect(self.jump)

    def jump(self) -> None:
        focused = QApplication.focusWidget()
        in_sidebar = focused is not None and (
            focused is self._sidebar or self._sidebar.isAncestorOf(focused)
        )
        if not in_sidebar:
            self._came_from = focused
            self._list.setFocus(Qt.FocusReason.ShortcutFocusReason)
            return
        back = self._came_from
        if back is None or not back.isVisible() or not back.isEnabled():
            back = self._work_target()
        if back is not None:
            back.setFocus(Qt.FocusReason.ShortcutFocusReason)
