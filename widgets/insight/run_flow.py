"""The Runs tab as a view of the RunController: its rows, the run dialogs, the messages."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog, QWidget

from app.core.marker_reasons import EarlierFile
from app.desk.open_task import OpenTask
from app.desk.run_controller import NO_RUNS_LIST, RunController, RunInfo, RunSummary
from app.desk.runner import Runner
from app.render.task_insight import BudgetView, ComparedTasks
from widgets.insight.changes_dialog import ChangesDialog
from widgets.insight.insight_actions import InsightActions
from widgets.insight.insight_panel import InsightPanel
from widgets.insight.run_list_model import RunRow
from widgets.insight.system_view import SystemViewDialog
from widgets.window.messages import Messages

__all__ = ["NO_RUNS_LIST", "RunFlow", "RunsHost"]


class RunsHost(Protocol):
    """Where the Runs tab lives: the side panel and its commands, the history References
    share, and how dialogs open (``InsightFlow`` is one)."""

    panel: InsightPanel
    commands: InsightActions
    history: dict[str, tuple[EarlierFile, ...]]
    dialog_parent: QWidget

    def open_dialog(self, dialog: QDialog) -> None: ...

    def show_budget(self, agent_id: str, view: BudgetView) -> None: ...


class RunFlow(QObject):
    """Observes ``controller`` (every client call of the Runs tab is its) and draws what it
    says; the panel's intents (start, open, compare) go to it. Dialogs open through
    ``insight`` (which keeps the last one). Built from an ``OpenTask``: no tab needed."""

    def __init__(
        self,
        runner: Runner,
        messages: Messages,
        task: OpenTask,
        insight: RunsHost,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._messages = messages
        self._task = task
        self._insight = insight
        self.controller = c = RunController(runner, task, insight.history, self)
        c.runs_listed.connect(self._on_runs_listed)
        c.run_started.connect(self._on_run_started)
        c.refused.connect(messages.error)
        c.over_budget.connect(self._on_over_budget)
        c.run_opened.connect(self._on_run_opened)
        c.changes_ready.connect(self._show_changes)
        c.failed.connect(messages.error)
        c.told.connect(messages.info)
        self.refresh_runs = c.refresh_runs
        self.start_run = c.start_run
        self.open_run = c.open_run
        self.changes_since = c.changes_since
        self.changes_since_last_run = c.changes_since_last_run
        self.compare_runs = c.compare_runs

    def _by(self) -> str:
        connection = self._task.connection
        return connection.me.name if connection is not None else ""

    def _row(self, run: RunSummary | RunInfo) -> RunRow:
        return RunRow.of(run, by=self._by())

    def _on_runs_listed(self, _agent_id: str, runs: list[RunSummary | RunInfo], why: str) -> None:
        self._insight.panel.runs.set_runs([self._row(r) for r in runs], why)

    def _on_run_started(self, _agent_id: str, run: RunInfo) -> None:
        panel = self._insight.panel
        if not panel.isVisible() or panel.current_tab() != "runs":
            self._insight.commands.runs.setChecked(True)  # lists the runs, this one first
        else:
            panel.runs.add_run(self._row(run))

    def _on_over_budget(self, agent_id: str, view: BudgetView, sentence: str) -> None:
        self._messages.error(sentence)
        self._insight.show_budget(agent_id, view)

    def _on_run_opened(self, run: RunInfo, gone: tuple[str, ...]) -> None:
        self._insight.open_dialog(SystemViewDialog(run, gone, parent=self._insight.dialog_parent))

    def _show_changes(self, compared: ComparedTasks, titles: tuple[str, str]) -> None:
        self._insight.open_dialog(
            ChangesDialog(
                compared.changes,
                compared.old_text,
                compared.new_text,
                titles,
                self._insight.dialog_parent,
            )
        )
