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
from app.client.errors import TaskdeskError
from app.core.expander import task_display_path
from app.core.marker_reasons import EarlierFile
from app.core.models import Reader
from app.desk.failures import failure_text
from app.desk.preview_pipeline import PreviewResult
from app.desk.runner import Runner
from app.render.task_insight import (
    BudgetView,
    TaskContext,
    TaskInsight,
    break_down_budget,
    explain_task,
    history_of_runs,
)
from widgets.insight.budget_dialog import BudgetDialog
from widgets.insight.insight_actions import InsightActions
from widgets.insight.insight_panel import InsightPanel, PanelTab
from widgets.insight.run_confirm import RunConfirmation
from widgets.insight.run_flow import RunFlow
from widgets.window.messages import Messages

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDialog, QMenu

    from widgets.task.task_tab import TaskTab

PANEL_WIDTH = 480


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
        self,
        runner: Runner,
        messages: Messages,
        tab: TaskTab,
        view_menu: QMenu | None,
        panel: InsightPanel | None = None,
    ) -> None:
        """``panel``: one already built (the Task tab builds it a view at a time)."""
        super().__init__(tab)
        self._runner = runner
        self._messages = messages
        self._tab = tab
        self.panel = panel if panel is not None else InsightPanel()
        self.panel.hide()
        tab.work_area.addWidget(self.panel)
        self.commands = InsightActions(tab)
        self.commands.add_to(view_menu)
        self.dialog: QDialog | None = None
        self.insight: TaskInsight | None = None
        self._explaining = False
        self._explain_again = False
        self.history: dict[str, tuple[EarlierFile, ...]] = {}
        self.runs = RunFlow(runner, messages, tab, self)
        self._wire()

    def _wire(self) -> None:
        c, tab, panel = self.commands, self._tab, self.panel
        for name, action in c.panel_actions.items():
            action.toggled.connect(lambda on, name=name: self.on_panel_toggled(name, on))
        c.budget.triggered.connect(self.open_budget)
        self.run_confirmation = RunConfirmation(tab, self.runs.start_run)  # asks first
        c.start_run.triggered.connect(self.run_confirmation.ask)
        c.changed_since.triggered.connect(self.runs.changes_since_last_run)
        tab.live_preview.shown.connect(self.on_preview)
        tab.agent_shown.connect(self.on_agent_shown)
        tab.size_meters.task_meter.clicked.connect(self.open_budget)
        tab.size_meters.embeds_meter.clicked.connect(self.open_budget)
        panel.currentChanged.connect(lambda _: self.on_tab_changed())
        panel.references.jump_requested.connect(self.jump_to)
        panel.references.note_requested.connect(tab.links.on_embed_clicked)
        panel.runs.start_requested.connect(self.runs.start_run)
        panel.runs.open_requested.connect(self.runs.open_run)
        panel.runs.changes_requested.connect(self.runs.changes_since)
        panel.runs.compare_requested.connect(self.runs.compare_runs)

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
            self.runs.refresh_runs()
        else:
            self.explain()

    def on_agent_shown(self, _agent_id: str) -> None:
        if self.panel.isVisible():
            self.runs.refresh_runs()

    def on_preview(self, _result: PreviewResult) -> None:
        if self.panel.current_tab() in ("references", "shape"):
            self.explain()

    def context(self) -> TaskContext | None:
        tab = self._tab
        if tab.agent is None or tab.connection is None:
            return None
        org = tab.connection.me.org_id
        reader = Reader(tab.agent.id, tab.agent.guild_id)
        return TaskContext(org, reader, task_display_path(org, tab.agent.id))

    def still(self, agent_id: str) -> bool:
        """The same agent is open: an answer for it may be shown."""
        return self._tab.agent is not None and self._tab.agent.id == agent_id

    # ---------------------------------------------------------------- references

    def explain(self) -> None:
        """References and shape of the editor text; one job at a time, the newest text wins."""
        context, notes = self.context(), self._tab.live_preview.notes
        if context is None or notes is None:
            return
        if self._explaining:
            self._explain_again = True
            return
        self._explaining = True
        agent_id = context.reader.agent_id
        text = self._tab.editor.text()
        known = self.history.get(agent_id)
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
        self.history.setdefault(agent_id, history)
        if self.still(agent_id):
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
        context, notes = self.context(), self._tab.live_preview.notes
        if context is None or notes is None:
            return
        text = self._tab.editor.text()
        agent_id = context.reader.agent_id
        self._runner.submit(
            lambda: break_down_budget(notes, text, context),
            on_done=lambda view: self.show_budget(agent_id, view),
            on_error=lambda exc: self._messages.warning(
                f"The budget breakdown could not be worked out: {failure_text(exc)}"
            ),
        )

    def show_budget(self, agent_id: str, view: BudgetView) -> None:
        if self.still(agent_id):
            self.open_dialog(BudgetDialog(view.budget, view.sizes, self._tab))

    def open_dialog(self, dialog: QDialog) -> None:
        if self.dialog is not None:
            self.dialog.close()
        self.dialog = dialog
        dialog.finished.connect(lambda _: self._closed(dialog))
        dialog.open()

    def _closed(self, dialog: QDialog) -> None:
        if self.dialog is dialog:
            self.dialog = None
        dialog.deleteLater()
