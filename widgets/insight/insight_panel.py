"""The side panel beside the Task: References, Runs and the shape check, one tab each."""

from __future__ import annotations

from typing import Literal

from PySide6.QtWidgets import QTabWidget, QWidget

from widgets.insight.references_view import ReferencesView
from widgets.insight.runs_view import RunsView
from widgets.insight.shape_view import ShapeView

PanelTab = Literal["references", "runs", "shape"]


class InsightPanel(QTabWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("InsightPanel")
        self.setMinimumWidth(340)
        self.references = ReferencesView()
        self.runs = RunsView()
        self.shape = ShapeView()
        self.addTab(self.references, "References")
        self.addTab(self.runs, "Runs")
        self.addTab(self.shape, "Shape")
        self._tabs: dict[PanelTab, QWidget] = {
            "references": self.references,
            "runs": self.runs,
            "shape": self.shape,
        }

    def show_tab(self, tab: PanelTab) -> None:
        self.setCurrentWidget(self._tabs[tab])
        self.show()

    def current_tab(self) -> PanelTab | None:
        if not self.isVisible():
            return None
        current = self.currentWidget()
        return next((name for name, widget in self._tabs.items() if widget is current), None)
