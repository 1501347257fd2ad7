"""The side panel beside the Task: References, Runs and the shape check, one tab each."""

from __future__ import annotations

from typing import Literal

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTabWidget, QWidget

from widgets.common.built_in_parts import Parts, parts_of
from widgets.insight.references_view import ReferencesView
from widgets.insight.runs_view import RunsView
from widgets.insight.shape_view import ShapeView

PanelTab = Literal["references", "runs", "shape"]


class InsightPanel(QTabWidget):
    def __init__(self, parent: QWidget | None = None, *, staged: bool = False) -> None:
        """``staged``: an empty tab widget; ``parts`` adds a view at a time (the Task tab
        builds it after the first Task, between events)."""
        super().__init__(parent)
        self.setObjectName("InsightPanel")
        self.setAccessibleName("Side panel")  # a focusable container needs a name to be read
        self.setMinimumWidth(340)
        self._tabs: dict[PanelTab, QWidget] = {}
        self.parts = parts_of(self._build(), staged=staged)

    def _build(self) -> Parts:
        self.references = ReferencesView()
        self.addTab(self.references, "References")
        yield ()
        self.runs = RunsView()
        self.addTab(self.runs, "Runs")
        yield ()
        self.shape = ShapeView()
        self.addTab(self.shape, "Shape")
        self._tabs.update({"references": self.references, "runs": self.runs, "shape": self.shape})

    def show_tab(self, tab: PanelTab) -> None:
        self.setCurrentWidget(self._tabs[tab])
        self.show()

    def focus_target(self) -> QWidget:
        """Where focus goes in the tab on show: its list or tree, not the tab bar."""
        current = self.currentWidget()
        if current is self.references:
            return self.references.tree
        if current is self.runs:
            return self.runs.list
        if current is self.shape:
            return self.shape.advice
        return self

    def show_and_focus(self, tab: PanelTab) -> None:
        """Show ``tab`` and move focus into it: what the tab's own shortcut does."""
        self.show_tab(tab)
        self.focus_target().setFocus(Qt.FocusReason.ShortcutFocusReason)

    def current_tab(self) -> PanelTab | None:
        if not self.isVisible():
            return None
        current = self.currentWidget()
        return next((name for name, widget in self._tabs.items() if widget is current), None)
