"""A row of tool buttons showing their names while there is room, and only their icons when not."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QToolButton, QWidget

BESIDE = Qt.ToolButtonStyle.ToolButtonTextBesideIcon
ICON_ONLY = Qt.ToolButtonStyle.ToolButtonIconOnly


def name_width(button: QToolButton) -> int:
    """What a tool button's name adds to its width beside its icon (QToolButton's sizeHint:
    4 px, the text with a space either side)."""
    metrics = button.fontMetrics()
    text = metrics.size(Qt.TextFlag.TextShowMnemonic, button.text()).width()
    return 4 + text + 2 * metrics.horizontalAdvance(" ")


class FoldingBar(QWidget):
    """``row`` holds the buttons (and anything else); the ``folding`` tool buttons drop their
    names, and keep their icons and tooltips, when the bar is narrower than they need: in
    the order they were added, so the one added last keeps its name longest.

    Its minimum width is the folded one: a compare with long button names (Take this change
    from v12, 1 of 12 changes) never asks the window for more width, which a splitter would
    take from the sidebar, a little more at each redraw.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.row = QHBoxLayout(self)
        self.row.setContentsMargins(0, 0, 0, 0)
        self._folding: list[QToolButton] = []
        self._partner: dict[QToolButton, QToolButton | None] = {}

    def add_folding(
        self, button: QToolButton, index: int = -1, *, with_: QToolButton | None = None
    ) -> QToolButton:
        """Add ``button`` to the row (at ``index``, or at its end); it folds after the
        buttons added before it, or together with ``with_`` (Previous and Next)."""
        self.row.insertWidget(index, button)
        self._folding.append(button)
        self._partner[button] = with_
        return button

    def folded(self) -> list[QToolButton]:
        return [b for b in self._folding if b.toolButtonStyle() == ICON_ONLY]

    def _names(self, folded: bool) -> int:
        return sum(
            name_width(b)
            for b in self._folding
            if not b.isHidden() and (b.toolButtonStyle() == ICON_ONLY) == folded
        )

    def minimumSizeHint(self) -> QSize:
        hint = self.row.minimumSize()
        return QSize(hint.width() - self._names(folded=False), hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fold_to(self.width())

    def event(self, event: QEvent) -> bool:
        handled = super().event(event)
        if event.type() == QEvent.Type.LayoutRequest:
            self._fold_to(self.width())  # a button shown, hidden or renamed needs other room
        return handled

    def _fold_to(self, width: int) -> None:
        needed = self.row.sizeHint().width() + self._names(folded=True)  # every name shown
        fold: set[QToolButton] = set()
        for button in self._folding:
            partner = self._partner[button]
            if partner in fold or (needed > width and not button.isHidden()):
                fold.add(button)
                needed -= name_width(button) if not button.isHidden() else 0
        for button in self._folding:
            button.setToolButtonStyle(ICON_ONLY if button in fold else BESIDE)
