"""See what the agent gets, and why: the side panel's work, done on the runner.

References and the shape check follow the preview (each preview of the editor text, while
the panel shows them); the Runs tab lists the agent's runs; the budget breakdown opens from
the meters. Every blocking step (notes, runs, diffs of 256 KB texts) runs on the runner,
and its answer is dropped when the agent or server changed meanwhile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QTextCursor

from app.client import TaskdeskClient
from app.client.errors import BudgetExceeded, NotFound, TaskdeskError
from app.client.runs import RunInfo, RunSummary
from app.core.expander import task_display_path
from app.core.marker_reasons import EarlierFile
from app.core.models import Reader
from app.desk.failures import failure_text
from app.desk.preview_pipeline import PreviewResult
from app.desk.runner import Runner
from app.render.task_insight import (
    BudgetView,
    ComparedTasks,
    TaskContext,
    TaskInsight,
    break_down_budget,
    changes_between_runs,
    changes_since_run,
    explain_task,
    history_of_runs,
)
from widgets.insight.budget_dialog import BudgetDialog
from widgets.insight.changes_dialog import ChangesDialog
from widgets.insight.insight_actions import InsightActions
from widgets.insight.insight_panel import InsightPanel, PanelTab
from widgets.insight.run_list_model import RunRow
from widgets.insight.system_view import SystemViewDialog
from widgets.window.messages import Messages

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDialog, QMenu

    from widgets.task.task_tab import TaskTab

PANEL_WIDTH = 480
NO_RUNS_LIST = (
    "This server doesn't list runs: only the runs started here since Taskdesk opened show."
)


def earlier_runs(client: TaskdeskClient | None, agent_id: str) -> tuple[EarlierFile, ...]:
    """What the agent's runs inlined, from the runs list; nothing where there is none."""
    if client is None:
        return ()
    try:
        return history_of_runs(client.runs(agent_id))
    except TaskdeskError:  # no runs list here, or it failed: References say "missing"
        return ()


class InsightFlow(QObject):
    """Owns the side ``panel`` and its ``commands``; keeps the dialog it opened last
    (``dialog``) so tests can read and close it."""

    def __init__(
        self, runner: Runner, messages: Messages, tab: TaskTab, view_menu: QMenu | None
    ) -> None:
        super().__init__(tab)
        self._runner = runner
        self._messages = messages
        self._tab = tab
        self.panel = InsightPanel()
        self.panel.hide()
        tab.work_area.addWidget(self.panel)
        self.commands = InsightActions(tab)
        self.commands.add_to(view_menu)
        self.dialog: QDialog | None = None
        self.insight: TaskInsight | None = None
        self._explaining = False
        self._explain_again = False
        self._history: dict[str, tuple[EarlierFile, ...]] = {}
        self._started_here: dict[tuple[str, str], list[RunRow]] = {}  # (server, agent)
        self._runs_listed: bool | None = None  # None: not known for this server yet
        self._wire()

    def _wire(self) -> None:
        c, tab, panel = self.commands, self._tab, self.panel
        for name, action in c.panel_actions.items():
            action.toggled.connect(lambda on, name=name: self.on_panel_toggled(name, on))
        c.budget.triggered.connect(self.open_budget)
        c.start_run.triggered.connect(self.start_run)
        c.changed_since.triggered.connect(self.changes_since_last_run)
        tab.live_preview.shown.connect(self.on_preview)
        tab.agent_shown.connect(self.on_agent_shown)
        tab.size_meters.task_meter.clicked.connect(self.open_budget)
        tab.size_meters.embeds_meter.clicked.connect(self.open_budget)
        panel.currentChanged.connect(lambda _: self.on_tab_changed())
        panel.references.jump_requested.connect(self.jump_to)
        panel.references.note_requested.connect(tab.links.on_embed_clicked)
        panel.runs.start_requested.connect(self.start_run)
        panel.runs.open_requested.connect(self.open_run)
        panel.runs.changes_requested.connect(self.changes_since)
        panel.runs.compare_requested.connect(self.compare_runs)

    # ---------------------------------------------------------------- the panel

    def on_panel_toggled(self, name: PanelTab, on: bool) -> None:
        if on:
            if not self.panel.isVisible():
                area = self._tab.work_area
                sizes = area.sizes()
                wanted = min(PANEL_WIDTH, sum(sizes) // 2)
                sizes[-1] = wanted
                sizes[0] = max(1, sizes[0] - wanted)
                self.panel.show_tab(name)
                area.setSizes(sizes)
            self.panel.show_tab(name)
            self.on_tab_changed()
        elif self.panel.current_tab() == name:
            self.panel.hide()

    def on_tab_changed(self) -> None:
        tab = self.panel.current_tab()
        if tab is None:
            return
        action = self.commands.panel_actions[tab]
        if not action.isChecked():
            action.setChecked(True)  # its toggle shows the tab and comes back here
            return
        if tab == "runs":
            self.refresh_runs()
        else:
            self.explain()

    def on_agent_shown(self, _agent_id: str) -> None:
        if self.panel.isVisible():
            self.refresh_runs()

    def on_preview(self, _result: PreviewResult) -> None:
        if self.panel.current_tab() in ("references", "shape"):
            self.explain()

    def _context(self) -> TaskContext | None:
        tab = self._tab
        if tab.agent is None or tab.connection is None:
            return None
        org = tab.connection.me.org_id
        reader = Reader(tab.agent.id, tab.agent.guild_id)
        return TaskContext(org, reader, task_display_path(org, tab.agent.id))

    def _still(self, agent_id: str) -> bool:
        """The same agent is open: an answer for it may be shown."""
        return self._tab.agent is not None and self._tab.agent.id == agent_id

    # ---------------------------------------------------------------- references

    def explain(self) -> None:
        """References and shape of the editor text; one job at a time, the newest text wins."""
        context, notes = self._context(), self._tab.live_preview.notes
        if context is None or notes is None:
            return
        if self._explaining:
            self._explain_again = True
            return
        self._explaining = True
        agent_id = context.reader.agent_id
        text = self._tab.editor.text()
        known = self._history.get(agent_id)
        client = self._tab.connection.client if self._tab.connection is not None else None

        def work() -> tuple[TaskInsight, tuple[EarlierFile, ...]]:
            # Earlier runs tell a deleted note from one that never was: read them once.
            history = known if known is not None else earlier_runs(client, agent_id)
            return explain_task(notes, text, context, history), history

        self._runner.submit(
            work,
            on_done=lambda found: self._on_explained(agent_id, *found),
            on_error=self._on_explain_failed,
        )

    def _on_explained(
        self, agent_id: str, insight: TaskInsight, history: tuple[EarlierFile, ...]
    ) -> None:
        self._explaining = False
        self._history.setdefault(agent_id, history)
        if self._still(agent_id):
            self.insight = insight
            self.panel.references.set_references(insight.references, self._reader_notice())
            self.panel.shape.set_check(insight.shape)
        self._next_explain()

    def _on_explain_failed(self, exc: BaseException) -> None:
        self._explaining = False
        self._messages.warning(f"References could not be worked out: {failure_text(exc)}")
        self._next_explain()

    def _next_explain(self) -> None:
        if self._explain_again:
            self._explain_again = False
            self.explain()

    def _reader_notice(self) -> str:
        connection = self._tab.connection
        if connection is not None and connection.features.note_text is False:
            return (
                "This server doesn't share note text or access lists: every embed shows as "
                "the marker, and its reason can't be told here."
            )
        if connection is None or connection.me.type == "operator":
            return ""
        return (
            f"Signed in as a {connection.me.type}: files you may not read show as missing, "
            "whatever their reason."
        )

    def jump_to(self, line: int, column: int) -> None:
        """Put the editor's cursor on a reference in the Task (1-based line and column)."""
        self._tab.set_mode_edit(True)
        editor = self._tab.editor
        block = editor.document().findBlockByNumber(line - 1)
        if not block.isValid():
            return
        cursor = QTextCursor(block)
        cursor.movePosition(
            QTextCursor.MoveOperation.Right, QTextCursor.MoveMode.MoveAnchor, column - 1
        )
        editor.setTextCursor(cursor)
        editor.centerCursor()

    # ---------------------------------------------------------------- the budget

    def open_budget(self) -> None:
        """The breakdown of the editor text: what eats the 64 KB, and the 256 KB."""
        context, notes = self._context(), self._tab.live_preview.notes
        if context is None or notes is None:
            return
        text = self._tab.editor.text()
        agent_id = context.reader.agent_id
        self._runner.submit(
            lambda: break_down_budget(notes, text, context),
            on_done=lambda view: self._show_budget(agent_id, view),
            on_error=lambda exc: self._messages.warning(
                f"The budget breakdown could not be worked out: {failure_text(exc)}"
            ),
        )

    def _show_budget(self, agent_id: str, view: BudgetView) -> None:
        if self._still(agent_id):
            self._open(BudgetDialog(view.budget, view.sizes, self._tab))

    def _open(self, dialog: QDialog) -> None:
        if self.dialog is not None:
            self.dialog.close()
        self.dialog = dialog
        dialog.finished.connect(lambda _: self._closed(dialog))
        dialog.open()

    def _closed(self, dialog: QDialog) -> None:
        if self.dialog is dialog:
            self.dialog = None
        dialog.deleteLater()

    # ---------------------------------------------------------------- runs

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
        self._history[agent_id] = history_of_runs(runs)
        if self._still(agent_id):
            self.panel.runs.set_runs([RunRow.of(r) for r in runs])

    def _on_runs_failed(self, agent_id: str, exc: BaseException) -> None:
        if not self._still(agent_id):
            return
        here = self._started_here.get((self._server(), agent_id), [])
        if isinstance(exc, NotFound) and "no such agent" in exc.message:
            self.panel.runs.set_runs([], "This agent no longer exists on the server.")
        elif isinstance(exc, NotFound):
            self._runs_listed = False
            self.panel.runs.set_runs(list(here), NO_RUNS_LIST)
        else:
            self.panel.runs.set_runs(
                list(here), f"The runs could not be listed: {failure_text(exc)}"
            )

    def start_run(self) -> None:
        """Start a run of the saved Task (Ctrl+R); unsaved edits are not in it, and say so."""
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
        self._history[agent_id] = self._history.get(agent_id, ()) + history_of_runs([run])
        notes = len(run.task_source.notes)
        self._messages.info(
            f"Run {run.id} started: Task v{run.task_source.version}, "
            f"{notes} note{'s' * (notes != 1)} inlined."
        )
        if self._still(agent_id):
            if not self.panel.isVisible() or self.panel.current_tab() != "runs":
                self.commands.runs.setChecked(True)  # lists the runs, this one first
            else:
                self.panel.runs.add_run(row)

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
        context, notes, live = self._context(), self._tab.live_preview.notes, self._tab.state.live
        if context is None or notes is None or live is None or not self._still(agent_id):
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
            self._show_budget(agent_id, view)

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
            on_done=lambda found: self._open(SystemViewDialog(*found, parent=self._tab)),
            on_error=lambda exc: self._messages.error(
                f"The run could not be opened: {failure_text(exc)}"
            ),
        )

    def changes_since(self, run_id: str) -> None:
        """The run's Task as it got it beside what a run of the saved Task would get now."""
        context, notes = self._context(), self._tab.live_preview.notes
        live, connection = self._tab.state.live, self._tab.connection
        if context is None or notes is None or live is None or connection is None:
            return
        client, agent_id = connection.client, context.reader.agent_id

        def work() -> ComparedTasks:
            run = client.get_run(run_id)
            return changes_since_run(notes, run, live.content, live.version, context)

        def show(compared: ComparedTasks) -> None:
            if self._still(agent_id):
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
            if not self._still(agent_id):
                return
            if run_id is None:
                self._messages.info("This agent has no runs yet: start one with Ctrl+R.")
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
        self._open(
            ChangesDialog(compared.changes, compared.old_text, compared.new_text, titles, self._tab)
        )

    def _changes_failed(self, exc: BaseException) -> None:
        self._messages.error(f"The runs could not be compared: {failure_text(exc)}")
