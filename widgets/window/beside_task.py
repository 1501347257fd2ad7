"""The Task's place in the window: one pane, until something opens beside it (the Fleet),
then tabs, the Task always first and never closed."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QSplitter, QTabBar, QTabWidget, QWidget


class BesideTask:
    """Owns the splitter's second pane. ``put_task(widget)`` sets the Task's widget;
    ``show(widget, title)`` opens a tab beside it (``on_close(widget)`` when it is closed)."""

    def __init__(self, splitter: QSplitter, index: int = 1) -> None:
        self._splitter = splitter
        self._index = index
        self.tabs: QTabWidget | None = None
        self._on_close: dict[int, Callable[[], None]] = {}

    def put_task(self, widget: QWidget) -> None:
        if self.tabs is None:
            self._splitter.replaceWidget(self._index, widget)
            return
        current = self.tabs.currentIndex()
        self.tabs.removeTab(0)
        self.tabs.insertTab(0, widget, "Task")
        self._no_close_button()
        self.tabs.setCurrentIndex(current)

    def show(self, widget: QWidget, title: str, on_close: Callable[[], None]) -> None:
        tabs = self._tabs()
        if tabs.indexOf(widget) < 0:
            tabs.addTab(widget, title)
            self._on_close[id(widget)] = on_close
        tabs.setCurrentWidget(widget)

    def show_task(self) -> None:
        if self.tabs is not None:
            self.tabs.setCurrentIndex(0)

    def _tabs(self) -> QTabWidget:
        if self.tabs is None:
            task = self._splitter.widget(self._index)
            assert task is not None
            tabs = QTabWidget()
            tabs.setObjectName("besideTask")
            tabs.setDocumentMode(True)
            tabs.setTabsClosable(True)
            tabs.tabCloseRequested.connect(self._close)
            self._splitter.replaceWidget(self._index, tabs)
            tabs.addTab(task, "Task")
            self.tabs = tabs
            self._no_close_button()
        return self.tabs

    def _no_close_button(self) -> None:
        assert self.tabs is not None
        bar = self.tabs.tabBar()
        for side in (QTabBar.ButtonPosition.RightSide, QTabBar.ButtonPosition.LeftSide):
            bar.setTabButton(0, side, None)

    def _close(self, index: int) -> None:
        assert self.tabs is not None
        if index == 0:
            return
        widget = self.tabs.widget(index)
        self.tabs.removeTab(index)
        closed = self._on_close.pop(id(widget), None)
        if closed is not None:
            closed()

    def remove(self, widget: QWidget) -> None:
        """Take ``widget``'s tab away (its server is no longer the one signed in to)."""
        if self.tabs is not None and (index := self.tabs.indexOf(widget)) > 0:
            self.tabs.removeTab(index)
            self._on_close.pop(id(widget), None)
