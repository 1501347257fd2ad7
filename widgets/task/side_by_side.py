"""View › Side by side: the editor and the preview together, the preview following the editor."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QPlainTextEdit, QSplitter, QStackedWidget, QWidget

from widgets.preview.preview_pane import PreviewPane

EDITOR_MIN_WIDTH = 400
"""The editor beside the preview (and a side panel) is not left narrower than this while the
preview can give way: about 50 characters, room to edit a rule (it was left ~230 px)."""


class SideBySidePage(QSplitter):
    """A page of the modes stack that borrows the stack's edit and preview pages while it
    is shown (``take``) and hands them back (``give_back``): one editor, one preview, never
    two copies to keep in step. While shown, the preview scrolls with the editor."""

    def __init__(
        self,
        stack: QStackedWidget,
        edit_page: QWidget,
        preview_page: QWidget,
        editor: QPlainTextEdit,
        pane: PreviewPane,
    ) -> None:
        super().__init__(Qt.Orientation.Horizontal)
        self.setObjectName("SideBySide")
        self.setChildrenCollapsible(False)
        self._stack = stack
        self._edit_page = edit_page
        self._preview_page = preview_page
        self._editor = editor
        self._pane = pane
        # Methods, not closures: a connection to a method ends with this page.
        editor.verticalScrollBar().valueChanged.connect(self._on_editor_scrolled)
        editor.verticalScrollBar().rangeChanged.connect(self._on_editor_range)

    def is_shown(self) -> bool:
        return self._stack.currentWidget() is self

    def take(self) -> None:
        """Show the editor on the left and the preview on the right."""
        if self._edit_page.parent() is not self:
            self.addWidget(self._edit_page)  # reparenting takes them out of the stack
            self.addWidget(self._preview_page)
            self._edit_page.show()
            self._preview_page.show()
            half = max(self.width() // 2, 1)
            self.setSizes([half, half])
        self._stack.setCurrentWidget(self)
        self.keep_editor_room()
        self.follow_editor()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.keep_editor_room()

    def keep_editor_room(self) -> None:
        """Narrowed (a side panel opened beside it), the preview gives way first: the editor
        keeps EDITOR_MIN_WIDTH while the preview can keep its own minimum."""
        if not self.is_shown() or self.count() < 2:
            return
        editor, preview = self.sizes()[:2]
        total = editor + preview
        least = self._preview_page.minimumSizeHint().width()
        if editor < EDITOR_MIN_WIDTH and total - EDITOR_MIN_WIDTH >= least:
            self.setSizes([EDITOR_MIN_WIDTH, total - EDITOR_MIN_WIDTH])

    def give_back(self) -> None:
        """Put the preview and edit pages back in the stack, in their places."""
        if self._edit_page.parent() is self:
            self._stack.insertWidget(0, self._preview_page)
            self._stack.insertWidget(1, self._edit_page)

    def _on_editor_scrolled(self, _value: int) -> None:
        self.follow_editor()

    def _on_editor_range(self, _low: int, _high: int) -> None:
        self.follow_editor()

    def follow_editor(self) -> None:
        """The preview shows the same part of the Task as the editor (by proportion of
        the text: the rendered blocks are taller or shorter, but in the same order)."""
        if not self.is_shown():
            return
        bar = self._editor.verticalScrollBar()
        self._pane.scroll_to_fraction(bar.value() / bar.maximum() if bar.maximum() > 0 else 0.0)
