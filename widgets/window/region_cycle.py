"""Ctrl+Tab / Ctrl+Shift+Tab: focus moves between the window's regions.

Tab belongs to the editor (it types a tab), so the regions need keys of their own, as in
VS Code and GNOME's apps (F6 and Ctrl+Tab): the agents list, the banner on show (its first
button), the Task (editor, preview or compare, whichever is on screen) and the side panel.
A region that is hidden or empty is skipped; the move wraps around.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QWidget


@dataclass(frozen=True, slots=True)
class Region:
    """One region: ``areas`` hold it (focus inside one is "in" the region), ``target`` is
    where focus lands when the region is entered (None: skip it now)."""

    name: str
    areas: Callable[[], Sequence[QWidget]]
    target: Callable[[], QWidget | None]


class RegionCycle(QObject):
    """``forward`` and ``backward`` move focus to the next or previous region that has a
    target; ``moved`` regions are named to screen readers by the widgets' own names."""

    def __init__(
        self, forward: QAction, backward: QAction, regions: Sequence[Region], parent: QObject
    ) -> None:
        super().__init__(parent)
        self._regions = tuple(regions)
        forward.triggered.connect(self.move_forward)
        backward.triggered.connect(self.move_backward)

    def move_forward(self) -> None:
        self.move(1)

    def move_backward(self) -> None:
        self.move(-1)

    def current(self) -> int:
        """The region focus is in; -1 when it is in none of them."""
        focused = QApplication.focusWidget()
        if focused is None:
            return -1
        # Last first: a later region may sit inside an earlier one's area (the side panel is
        # in the Task's splitter), and then the later, narrower one is where focus is.
        for index in reversed(range(len(self._regions))):
            for area in self._regions[index].areas():
                if area is focused or area.isAncestorOf(focused):
                    return index
        return -1

    def move(self, step: int) -> QWidget | None:
        """Focus the next region's target (``step`` 1) or the previous one's (-1)."""
        count = len(self._regions)
        start = self.current()
        if start < 0:
            start = -1 if step > 0 else 0
        for offset in range(1, count + 1):
            region = self._regions[(start + step * offset) % count]
            target = region.target()
            if target is not None and target.isVisible() and target.isEnabled():
                target.setFocus(Qt.FocusReason.ShortcutFocusReason)
                return target
        return None


def first_focusable(areas: Sequence[QWidget]) -> QWidget | None:
    """The first visible, enabled widget inside the first shown of ``areas`` that takes
    focus by Tab (a banner's first button)."""
    for area in areas:
        if not area.isVisible():
            continue
        for child in area.findChildren(QWidget):
            takes_tab = child.focusPolicy() & Qt.FocusPolicy.TabFocus
            if child.isVisible() and child.isEnabled() and takes_tab:
                return child
    return None
