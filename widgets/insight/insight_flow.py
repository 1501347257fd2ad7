"""See what the agent gets, and why: the side panel's work, done on the runner.

References and the shape check follow the preview (each preview of the editor text, while
the panel shows them); the Runs tab lists the agent's runs; the budget breakdown opens from
the meters. Every blocking step (notes, runs, diffs of 256 KB texts) runs on the runner,
and its answer is dropped when the agent or server changed meanwhile.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QTextCursor

from app.core.marker_reasons import EarlierFile
from app.core.viewer_reach import with_agent_reads
from app.desk.failures import failure_text
from app.desk.open_task import OpenTask, still_open, task_context
from app.desk.preview_pipeline import PreviewResult
from app.desk.runner import Runner
from app.render.task_insight import (
    BudgetView,
    TaskContext,
    TaskInsight,
    break_down_budget,
    explain_task,
)
from widgets.insight.budget_dialog import BudgetDialog
from widgets.insight.insight_actions import InsightActions
from widgets.insight.insight_panel import InsightPanel, PanelTab
from widgets.insight.run_confirm import RunConfirmation
from widgets.insight.run_flow import RunFlow
from widgets.window.messages import Messages

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtWidgets import QDialog, QMenu, QWidget

    from widgets.editor.task_editor import TaskEditor
    from widgets.preview.preview_links import PreviewLinks
    from widgets.preview.size_meters import SizeMeters
    from widgets.task.live_preview import LivePreview
    from widgets.task.unreachable_embeds import UnreachableEmbeds
    from widgets.task.work_area import TaskWorkArea


class InsightHost(OpenTask, Protocol):
    """What the side panel needs of the open Task's view (the Task tab is one): where it
    sits, the preview it follows, the meters that open the budget, the editor it jumps in."""

    agent_shown: SignalInstance
    work_area: TaskWorkArea
    live_preview: LivePreview
    size_meters: SizeMeters
    links: PreviewLinks
    editor: TaskEditor
    unreachable: UnreachableEmbeds

    def set_mode_edit(self, edit: bool) -> None: ...


PANEL_WIDTH = 480


class InsightFlow(QObject):
    """Owns the side ``panel`` and its ``commands``; keeps the dialog it opened last
    (``dialog``) so tests can read and close it."""

    def __init__(
        self,
        runner: Runner,
        messages: Messages,
        tab: InsightHost,
        view_menu: QMenu | None,
        panel: InsightPanel | None = None,
        *,
        owner: QWidget,
    ) -> None:
        """``panel``: one already built (the Task tab builds it a view at a time);
        ``owner``: the widget its shortcuts and dialogs belong to (the tab)."""
        super().__init__(owner)
        self._runner = runner
        self._messages = messages
        self._tab = tab
        self.panel = panel if panel is not None else InsightPanel()
        self.panel.hide()
        tab.work_area.addWidget(self.panel)
        self.commands = InsightActions(owner)
        self.commands.add_to(view_menu)
        self.dialog: QDialog | None = None
        self.insight: TaskInsight | None = None
        self._explaining = False
        self._explain_again = False
        self.history: dict[str, tuple[EarlierFile, ...]] = {}
        self.dialog_parent = owner
        self.runs = RunFlow(runner, messages, tab, self, self)
        self._wire()

    def _wire(self) -> None:
        c, tab, panel = self.commands, self._tab, self.panel
        for name, action in c.panel_actions.items():
            action.toggled.connect(lambda on, name=name: self.on_panel_toggled(name, on))
            # Its shortcut or menu entry (not a toggle by code) also moves focus into it.
            action.triggered.connect(
                lambda on, name=name: self.panel.show_and_focus(name) if on else None
            )
        c.budget.triggered.connect(self.open_budget)
        self.run_confirmation = RunConfirmation(  # asks first
            tab, self.runs.start_run, parent=self.dialog_parent
        )
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
                wanted = min(PANEL_WIDTH, sum(area.sizes()) // 2)
                self.panel.show_tab(name)
                area.share_with_panel(wanted)  # never the editor left too narrow
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
        return task_context(self._tab)

    def still(self, agent_id: str) -> bool:
        """The same agent is open: an answer for it may be shown."""
        return still_open(self._tab, agent_id)

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
        earlier_runs = self.runs.controller.earlier_runs

        def work() -> tuple[TaskInsight, tuple[EarlierFile, ...]]:
            # Earlier runs tell a deleted note from one that never was: read them once.
            history = earlier_runs(agent_id)
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
            own = [r.path for r in insight.references.items if r.outcome == "marker"]
            references = with_agent_reads(insight.references, self._tab.unreachable.hidden(own))
            self.insight = insight = replace(insight, references=references)
            self.panel.references.set_references(references, self._reader_notice())
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
            f"Signed in as a {connection.me.type}: a Task embed the agent reads and you may "
            "not is marked so; inside notes, files you may not read show as missing."
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
            dialog = BudgetDialog(view.budget, view.sizes, self.dialog_parent)
            # A section's row goes to its heading in the editor (the dialog closes first).
            dialog.line_requested.connect(lambda line: self._go_to_section(dialog, line))
            self.open_dialog(dialog)

    def _go_to_section(self, dialog: QDialog, line: int) -> None:
        dialog.accept()
        self.jump_to(line, 1)

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
