"""Runs of the open agent: list, start, open and compare them on the runner; typed signals out.

The controller makes every client call of the Runs tab and owns its outcomes; the widgets
(``widgets/insight/run_flow.py``) observe the signals and send intents. Answers for an agent
that is no longer open are dropped here, once.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from app.client.errors import AgentGone, BudgetExceeded, NotFound, TaskdeskError
from app.client.runs import RunInfo, RunSummary, TaskSource
from app.core.marker_reasons import EarlierFile
from app.desk.failures import failure_text
from app.desk.open_task import OpenTask, still_open, task_context
from app.desk.runner import Runner
from app.render.task_insight import (
    BudgetView,
    ComparedTasks,
    break_down_budget,
    changes_between_runs,
    changes_since_run,
    history_of_runs,
)

__all__ = ["RunController", "RunInfo", "RunSummary", "TaskSource"]

NO_RUNS_LIST = (
    "This server doesn't list runs: only the runs started here since Taskdesk opened show."
)
AGENT_GONE = "This agent no longer exists on the server."
OVER_BUDGET = "The run was refused: its embedded notes exceed 64 KB."


class RunController(QObject):
    """The Runs tab's work for the open Task (``task``); ``history`` (per agent: what its
    runs inlined) is shared with References, which tell a deleted note from one never there."""

    runs_listed = Signal(str, object, str)  # agent id, list[RunSummary | RunInfo], why partial
    run_started = Signal(str, object)  # agent id, RunInfo
    refused = Signal(str)  # a sentence: the run was not started, and why
    over_budget = Signal(str, object, str)  # agent id, BudgetView, the sentence saying by how much
    run_opened = Signal(object, object)  # RunInfo, the display paths no longer there
    changes_ready = Signal(object, object)  # ComparedTasks, (old title, new title)
    failed = Signal(str)  # a sentence: opening or comparing runs failed
    told = Signal(str)  # a sentence for the status line

    def __init__(
        self,
        runner: Runner,
        task: OpenTask,
        history: dict[str, tuple[EarlierFile, ...]] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._runner = runner
        self._task = task
        self.history: dict[str, tuple[EarlierFile, ...]] = {} if history is None else history
        self._started_here: dict[tuple[str, str], list[RunInfo]] = {}  # (server, agent)
        self.runs_listed_here: bool | None = None  # None: not known for this server yet

    def _server(self) -> str:
        connection = self._task.connection
        return connection.server_key if connection is not None else ""

    def started_here(self, agent_id: str) -> list[RunInfo]:
        """The runs started from this window for ``agent_id``, newest first."""
        return list(self._started_here.get((self._server(), agent_id), []))

    # ---------------------------------------------------------------- listing

    def refresh_runs(self) -> None:
        task = self._task
        if task.agent is None or task.connection is None:
            return
        client, agent_id = task.connection.client, task.agent.id
        self._runner.submit(
            lambda: client.runs(agent_id),
            on_done=lambda runs: self._on_runs(agent_id, runs),
            on_error=lambda exc: self._on_runs_failed(agent_id, exc),
        )

    def _on_runs(self, agent_id: str, runs: list[RunSummary]) -> None:
        self.runs_listed_here = True
        self.history[agent_id] = history_of_runs(runs)
        if still_open(self._task, agent_id):
            self.runs_listed.emit(agent_id, list(runs), "")

    def _on_runs_failed(self, agent_id: str, exc: BaseException) -> None:
        if not still_open(self._task, agent_id):
            return
        if isinstance(exc, AgentGone):
            self.runs_listed.emit(agent_id, [], AGENT_GONE)
        elif isinstance(exc, NotFound):
            self.runs_listed_here = False
            self.runs_listed.emit(agent_id, self.started_here(agent_id), NO_RUNS_LIST)
        else:
            why = f"The runs could not be listed: {failure_text(exc)}"
            self.runs_listed.emit(agent_id, self.started_here(agent_id), why)

    def earlier_runs(self, agent_id: str) -> tuple[EarlierFile, ...]:
        """What the agent's runs inlined (blocking: call on the runner); () where none."""
        known = self.history.get(agent_id)
        if known is not None:
            return known
        connection = self._task.connection
        if connection is None:
            return ()
        try:
            return history_of_runs(connection.client.runs(agent_id))
        except TaskdeskError:  # no runs list here, or it failed: References say "missing"
            return ()

    # ---------------------------------------------------------------- starting

    def start_run(self) -> None:
        """Start a run of the saved Task; unsaved edits are not in it, and it says so."""
        task = self._task
        if task.agent is None or task.connection is None:
            return
        client, agent_id = task.connection.client, task.agent.id
        live = task.state.live
        if task.has_unsaved() and live is not None:
            self.told.emit(
                f"The run uses the saved Task (v{live.version}); your unsaved edits are not in it."
            )
        self._runner.submit(
            lambda: client.create_run(agent_id),
            on_done=lambda run: self._on_run_started(agent_id, run),
            on_error=lambda exc: self._on_run_refused(agent_id, exc),
        )

    def _on_run_started(self, agent_id: str, run: RunInfo) -> None:
        self._started_here.setdefault((self._server(), agent_id), []).insert(0, run)
        self.history[agent_id] = self.history.get(agent_id, ()) + history_of_runs([run])
        notes = len(run.task_source.notes)
        self.told.emit(
            f"Run {run.id} started: Task v{run.task_source.version}, "
            f"{notes} note{'s' * (notes != 1)} inlined."
        )
        if still_open(self._task, agent_id):
            self.run_started.emit(agent_id, run)

    def _on_run_refused(self, agent_id: str, exc: BaseException) -> None:
        if isinstance(exc, BudgetExceeded):
            self._refused_over_budget(agent_id)
        elif isinstance(exc, AgentGone):
            self.refused.emit("The run was not started: this agent no longer exists.")
        elif isinstance(exc, NotFound):
            self.refused.emit("The run was not started: this server doesn't start runs.")
        else:
            self.refused.emit(f"The run was not started: {failure_text(exc)}")

    def _refused_over_budget(self, agent_id: str) -> None:
        """Say by how much, from the saved Task's own breakdown, and show the breakdown."""
        task = self._task
        context, notes, live = task_context(task), task.preview_notes, task.state.live
        if context is None or notes is None or live is None or not still_open(task, agent_id):
            self.refused.emit(OVER_BUDGET)
            return
        text = live.content

        def show(view: BudgetView) -> None:
            budget = view.budget
            self.over_budget.emit(
                agent_id,
                view,
                f"The run was refused: the embedded notes hold {budget.total:,} bytes, "
                f"{budget.excess:,} over the 64 KB budget. The budget breakdown shows what "
                "to cut.",
            )

        self._runner.submit(
            lambda: break_down_budget(notes, text, context),
            on_done=show,
            on_error=lambda _exc: self.refused.emit(OVER_BUDGET),
        )

    # ---------------------------------------------------------------- one run, two runs

    def open_run(self, run_id: str) -> None:
        """The run's System view, read from the run (never recomputed)."""
        connection = self._task.connection
        if connection is None:
            return
        client, notes = connection.client, self._task.preview_notes

        def work() -> tuple[RunInfo, tuple[str, ...]]:
            run = client.get_run(run_id)
            paths = [n.display_path for n in run.task_source.notes]
            gone = tuple(p for p in paths if notes is not None and notes.file(p) is None)
            return run, gone

        self._runner.submit(
            work,
            on_done=lambda found: self.run_opened.emit(*found),
            on_error=lambda exc: self.failed.emit(
                f"The run could not be opened: {failure_text(exc)}"
            ),
        )

    def changes_since(self, run_id: str) -> None:
        """The run's Task as it got it beside what a run of the saved Task would get now."""
        task = self._task
        context, notes = task_context(task), task.preview_notes
        live, connection = task.state.live, task.connection
        if context is None or notes is None or live is None or connection is None:
            return
        client, agent_id = connection.client, context.reader.agent_id

        def work() -> ComparedTasks:
            run = client.get_run(run_id)
            return changes_since_run(notes, run, live.content, live.version, context)

        def show(compared: ComparedTasks) -> None:
            if still_open(self._task, agent_id):
                titles = (f"Run {run_id} (as it got it)", f"A run now (Task v{live.version})")
                self.changes_ready.emit(compared, titles)

        self._runner.submit(work, on_done=show, on_error=self._changes_failed)

    def changes_since_last_run(self) -> None:
        """The newest run of the open agent beside what a run would get now."""
        task = self._task
        if task.agent is None or task.connection is None:
            return
        client, agent_id = task.connection.client, task.agent.id
        here = self.started_here(agent_id)

        def newest() -> str | None:
            try:
                runs = client.runs(agent_id)
            except NotFound:  # no runs list here: the newest run started from this app
                return here[0].id if here else None
            return runs[0].id if runs else None

        def compare(run_id: str | None) -> None:
            if not still_open(self._task, agent_id):
                return
            if run_id is None:
                self.told.emit("This agent has no runs yet: start one with Ctrl+Alt+R.")
            else:
                self.changes_since(run_id)

        self._runner.submit(newest, on_done=compare, on_error=self._changes_failed)

    def compare_runs(self, old_id: str, new_id: str) -> None:
        connection = self._task.connection
        if connection is None:
            return
        client = connection.client

        def work() -> ComparedTasks:
            return changes_between_runs(client.get_run(old_id), client.get_run(new_id))

        self._runner.submit(
            work,
            on_done=lambda compared: self.changes_ready.emit(
                compared, (f"Run {old_id}", f"Run {new_id}")
            ),
            on_error=self._changes_failed,
        )

    def _changes_failed(self, exc: BaseException) -> None:
        self.failed.emit(f"The runs could not be compared: {failure_text(exc)}")
