"""The commands of the side panel: View › References, Runs, Shape check, Budget; Start a run."""

from __future__ import annotations

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

from widgets.insight.insight_panel import PanelTab
from widgets.insight.run_confirm import START_RUN_KEYS


class InsightActions:
    """``panel_actions`` show the side panel on one tab (checking one unchecks the others;
    unchecking hides the panel). Added to ``owner`` so their shortcuts work anywhere in the
    window, and to the View menu."""

    def __init__(self, owner: QWidget) -> None:
        self.references = self._action(owner, "&References", "Ctrl+Shift+R", checkable=True)
        self.runs = self._action(owner, "R&uns", "Ctrl+Shift+U", checkable=True)
        self.shape = self._action(owner, "Task s&hape check", "Ctrl+Shift+K", checkable=True)
        self.budget = self._action(owner, "&Budget breakdown…", "Ctrl+Shift+G")
        self.start_run = self._action(owner, "Start a &run…", START_RUN_KEYS)  # asks first
        self.changed_since = self._action(owner, "&Changed since the last run…", "Ctrl+Shift+L")
        self.start_run.setToolTip(
            f"Start a run of the saved Task, after a question ({START_RUN_KEYS})"
        )
        self.group = QActionGroup(owner)
        self.group.setExclusionPolicy(QActionGroup.ExclusionPolicy.ExclusiveOptional)
        for action in (self.references, self.runs, self.shape):
            self.group.addAction(action)
        self.panel_actions: dict[PanelTab, QAction] = {
            "references": self.references,
            "runs": self.runs,
            "shape": self.shape,
        }

    @staticmethod
    def _action(owner: QWidget, label: str, keys: str, *, checkable: bool = False) -> QAction:
        action = QAction(label, owner)
        name = label.replace("&", "").replace("…", "")
        action.setObjectName(name)
        action.setShortcut(QKeySequence(keys))
        action.setToolTip(f"{name} ({keys})")
        action.setCheckable(checkable)
        owner.addAction(action)
        return action

    def add_to(self, view_menu: QMenu | None) -> None:
        if view_menu is None:
            return
        view_menu.addSeparator()
        for action in (self.references, self.runs, self.shape, self.budget):
            view_menu.addAction(action)
        view_menu.addSeparator()
        view_menu.addAction(self.start_run)
        view_menu.addAction(self.changed_since)
