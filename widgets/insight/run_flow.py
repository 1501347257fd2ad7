"""The Runs tab's work: list the agent's runs, start one, open its System view, compare."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from app.client.errors import BudgetExceeded, NotFound
from app.client.runs import RunInfo, RunSummary
from app.desk.failures import failure_text
from app.desk.runner import Runner
from app.render.task_insight import (
    BudgetView,
    ComparedTasks,
    break_down_budget,
    changes_between_runs,
    changes_since_run,
    history_of_runs,
)
from widgets.insight.changes_dialog import ChangesDialog
from widgets.insight.run_list_model import RunRow
from widgets.insight.system_view import SystemViewDialog
from widgets.window.messages import Messages

if TYPE_CHECKING:
    from widgets.insight.insight_flow import InsightFlow
    from widgets.task.task_tab import TaskTab

NO_RUNS_LIST = (
    "This server doesn't list runs: only the runs started here since Taskdesk opened show."
)


class RunFlow(QObject):
    """Runs of the open agent, on the runner; answers for another agent are dropped. The
    dialogs it opens go through ``insight`` (which keeps the last one)."""

    def __init__(
        self, runner: Runner, messages: Messages, tab: TaskTab, insight: InsightFlow
    ) -> None:
        super().__init__(insight)
        self._runner = runner
        self._messages = messages
        self._tab = tab
        self._insight = insight
        self._started_here: dict[tuple[str, str], list[RunRow]] = {}  # (server, agent)
        self._runs_listed: bool | None = None  # None: not known for this server yet

    def _server(self) -> str:
        connection = self._tab.connection
        return connection.server_key if connection is not None else ""

    def refresh_runs(self) -> None:
        tab = self._tab
        if tab.agent is None or tab.connection is None:
            return
        client, agent_id = tab.connection.client, tab.agent.id
        self._runner.submit(
            lambda: client.runs(agent_id),
            on_done=lambda runs: self._on_runs(agent_id, runs),
            on_error=lambda exc: self._on_runs_failed(agent_id, exc),
        )

    def _on_runs(self, agent_id: str, runs: list[RunSummary]) -> None:
        self._runs_listed = True
        self._insight.history[agent_id] = history_of_runs(runs)
        if self._insight.still(agent_id):
            self._insight.panel.runs.set_runs([RunRow.of(r) for r in runs])

    def _on_runs_failed(self, agent_id: str, exc: BaseException) -> None:
        if not self._insight.still(agent_id):
            return
        here = self._started_here.get((self._server(), agent_id), [])
        if isinstance(exc, NotFound) and "no such agent" in exc.message:
            self._insight.panel.runs.set_runs([], "This agent no longer exists on the server.")
        elif isinstance(exc, NotFound):
            self._runs_listed = False
            self._insight.panel.runs.set_runs(list(here), NO_RUNS_LIST)
        else:
            self._insight.panel.runs.set_runs(
                list(here), f"The runs could not be listed: {failure_text(exc)}"
            )

    def start_run(self) -> None:
        """Start a run of the saved Task; unsaved edits are not in it, and say so."""
        tab = self._tab
        if tab.agent is None or tab.connection is None:
            return
        connection, agent_id = tab.connection, tab.agent.id
        live = tab.state.live
        if tab.has_unsaved() and live is not None:
            self._messages.info(
                f"The run uses the saved Task (v{live.version}); your unsaved edits are not in it."
            )
        self._runner.submit(
            lambda: connection.client.create_run(agent_id),
            on_done=lambda run: self._on_run_started(agent_id, run),
            on_error=lambda exc: self._on_run_refused(agent_id, exc),
        )

    def _on_run_started(self, agent_id: str, run: RunInfo) -> None:
        connection = self._tab.connection
        row = RunRow.of(run, by=connection.me.name if connection is not None else "")
        self._started_here.setdefault((self._server(), agent_id), []).insert(0, row)
        self._insight.history[agent_id] = self._insight.history.get(agent_id, ()) + history_of_runs(
            [run]
        )
        notes = len(run.task_source.notes)
        self._messages.info(
            f"Run {run.id} started: Task v{run.task_source.version}, "
            f"{notes} note{'s' * (notes != 1)} inlined."
        )
        if self._insight.still(agent_id):
            if not self._insight.panel.isVisible() or self._insight.panel.current_tab() != "runs":
                self._insight.commands.runs.setChecked(True)  # lists the runs, this one first
            else:
                self._insight.panel.runs.add_run(row)

    def _on_run_refused(self, agent_id: str, exc: BaseException) -> None:
        if isinstance(exc, BudgetExceeded):
            self._refused_over_budget(agent_id)
        elif isinstance(exc, NotFound) and "no such agent" in exc.message:
            self._messages.error("The run was not started: this agent no longer exists.")
        elif isinstance(exc, NotFound):
            self._messages.error("The run was not started: this server doesn't start runs.")
        else:
            self._messages.error(f"The run was not started: {failure_text(exc)}")

    def _refused_over_budget(self, agent_id: str) -> None:
        """Say by how much, from the saved Task's own breakdown, and show the breakdown."""
        context, notes, live = (
            self._insight.context(),
            self._tab.live_preview.notes,
            self._tab.state.live,
        )
        if context is None or notes is None or live is None or not self._insight.still(agent_id):
            self._messages.error("The run was refused: its embedded notes exceed 64 KB.")
            return
        text = live.content

        def show(view: BudgetView) -> None:
            budget = view.budget
            self._messages.error(
                f"The run was refused: the embedded notes hold {budget.total:,} bytes, "
                f"{budget.excess:,} over the 64 KB budget. The budget breakdown shows what "
                "to cut."
            )
            self._insight.show_budget(agent_id, view)

        self._runner.submit(
            lambda: break_down_budget(notes, text, context),
            on_done=show,
            on_error=lambda _exc: self._messages.error(
                "The run was refused: its embedded notes exceed 64 KB."
            ),
        )

    def open_run(self, run_id: str) -> None:
        """The run's System view, read from the run (never recomputed)."""
        connection = self._tab.connection
        if connection is None:
            return
        client, notes = connection.client, self._tab.live_preview.notes

        def work() -> tuple[RunInfo, tuple[str, ...]]:
            run = client.get_run(run_id)
            paths = [n.display_path for n in run.task_source.notes]
            gone = tuple(p for p in paths if notes is not None and notes.file(p) is None)
            return run, gone

        self._runner.submit(
            work,
            on_done=lambda found: self._insight.open_dialog(
                SystemViewDialog(*found, parent=self._tab)
            ),
            on_error=lambda exc: self._messages.error(
                f"The run could not be opened: {failure_text(exc)}"
            ),
        )

    def changes_since(self, run_id: str) -> None:
        """The run's Task as it got it beside what a run of the saved Task would get now."""
        context, notes = self._insight.context(), self._tab.live_preview.notes
        live, connection = self._tab.state.live, self._tab.connection
        if context is None or notes is None or live is None or connection is None:
            return
        client, agent_id = connection.client, context.reader.agent_id

        def work() -> ComparedTasks:
            run = client.get_run(run_id)
            return changes_since_run(notes, run, live.content, live.version, context)

        def show(compared: ComparedTasks) -> None:
            if self._insight.still(agent_id):
                titles = (f"Run {run_id} (as it got it)", f"A run now (Task v{live.version})")
                self._show_changes(compared, titles)

        self._runner.submit(work, on_done=show, on_error=self._changes_failed)

    def changes_since_last_run(self) -> None:
        """The newest run of the open agent beside what a run would get now."""
        tab = self._tab
        if tab.agent is None or tab.connection is None:
            return
        client, agent_id = tab.connection.client, tab.agent.id
        here = self._started_here.get((self._server(), agent_id), [])

        def newest() -> str | None:
            try:
                runs = client.runs(agent_id)
            except NotFound:  # no runs list here: the newest run started from this app
                return here[0].id if here else None
            return runs[0].id if runs else None

        def compare(run_id: str | None) -> None:
            if not self._insight.still(agent_id):
                return
            if run_id is None:
                self._messages.info("This agent has no runs yet: start one with Ctrl+Alt+R.")
            else:
                self.changes_since(run_id)

        self._runner.submit(newest, on_done=compare, on_error=self._changes_failed)

    def compare_runs(self, old_id: str, new_id: str) -> None:
        connection = self._tab.connection
        if connection is None:
            return
        client = connection.client

        def work() -> ComparedTasks:
            return changes_between_runs(client.get_run(old_id), client.get_run(new_id))

        self._runner.submit(
            work,
            on_done=lambda compared: self._show_changes(
                compared, (f"Run {old_id}", f"Run {new_id}")
            ),
            on_error=self._changes_failed,
        )

    def _show_changes(self, compared: ComparedTasks, titles: tuple[str, str]) -> None:
        self._insight.open_dialog(
            ChangesDialog(compared.changes, compared.old_text, compared.new_text, titles, self._tab)
        )

    def _changes_failed(self, exc: BaseException) -> None:
        self._messages.error(f"The runs could not be compared: {failure_text(exc)}")
