"""File › Move note…: where the note is and where it goes, then the change set's preview of
every Task whose embeds are rewritten, and Move."""

from __future__ import annotations

from typing import cast

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from app.core.change_plan import PlanRow
from app.core.embed_rename import wrapper_change
from app.desk.change_set_flow import ChangeSetFlow
from app.desk.note_move import MoveOutcome, MovePlan, NoteMove
from widgets.common.plain_text import plain_label
from widgets.fleet.change_preview import ChangePreviewDialog

CHECKING = "Checking the note, the new path and who embeds it…"


class MoveNoteDialog(QDialog):
    """Asks for the two paths; ``planned`` (on the controller) means the preview may open.
    The controller is its child, so a closed dialog drops a late answer."""

    def __init__(self, move: NoteMove, old_path: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("moveNote")
        self.setWindowTitle("Move note")
        self.resize(620, 0)
        self.move_ = move
        move.setParent(self)
        self.old_path = QLineEdit(old_path, self)
        self.old_path.setAccessibleName("Note to move")
        self.old_path.setPlaceholderText("org/…/note.md")
        self.new_path = QLineEdit(old_path, self)
        self.new_path.setAccessibleName("New path")
        self.new_path.setPlaceholderText("org/…/new-name.md")
        self.problem = plain_label(
            "Every embed of it in every live Task is rewritten as one change set, previewed "
            "first; embeds inside code fences and plain [[name]] links are left as written.",
            self,
        )
        self.problem.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.preview_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.preview_button.setText("Preview…")
        form = QFormLayout(self)
        form.addRow("Note", self.old_path)
        form.addRow("Move to", self.new_path)
        form.addRow(self.problem)
        form.addRow(self.buttons)
        self.plan: MovePlan | None = None
        self.buttons.accepted.connect(self.on_preview)
        self.buttons.rejected.connect(self.reject)
        move.planned.connect(self.on_planned)
        move.failed.connect(self.on_failed)

    def on_preview(self) -> None:
        self.preview_button.setEnabled(False)
        self.problem.setText(CHECKING)
        self.move_.plan(self.old_path.text(), self.new_path.text())

    def on_planned(self, plan: MovePlan) -> None:
        self.plan = plan
        self.accept()

    def on_failed(self, sentence: str) -> None:
        self.preview_button.setEnabled(True)
        self.problem.setText(sentence)


def plan_summary(plan: MovePlan) -> str:
    """What the preview says above its rows: who, which notes, what stays as written."""
    count = len(plan.agent_ids)
    tasks = (
        "No Task embeds"
        if not count
        else "1 Task embeds"
        if count == 1
        else f"{count:,} Tasks embed"
    )
    said = [
        f"{tasks} {plan.old.display_path}; the rows below are the ones whose embeds are rewritten."
    ]
    if plan.notes:
        said.append(
            "The embeds in "
            + ", ".join(n.display_path for n in plan.notes)
            + " are rewritten too (a run inlines those notes)."
        )
    if plan.fenced:
        said.append(
            "Left as written inside a code fence in the Task of "
            + ", ".join(plan.fenced)
            + ": while one is there the server keeps the old note, so it stays at the old path."
        )
    said.append(wrapper_change(plan.old.display_path, plan.new_path))
    return " ".join(said)


class MovePreviewDialog(ChangePreviewDialog):
    """The change set's preview of a move: Move makes the note at the new path, saves the
    rows as one change set, rewrites the notes and deletes the old note."""

    def __init__(
        self, flow: ChangeSetFlow, move: NoteMove, plan: MovePlan, parent: QWidget | None = None
    ) -> None:
        super().__init__(flow, plan.title, parent)
        self.setObjectName("moveNotePreview")
        self.setWindowTitle("Move note: preview")
        self.plan = plan
        self.move_ = move
        move.setParent(self)
        self.apply_button.setText("&Move")
        self.revert_button.setVisible(False)
        self.title.setReadOnly(True)
        self.summary = plain_label(plan_summary(plan), self)
        self.summary.setWordWrap(True)
        self.summary.setObjectName("moveSummary")
        cast(QVBoxLayout, self.layout()).insertWidget(1, self.summary)
        self.outcome: MoveOutcome | None = None
        move.moved.connect(self.show_moved)
        move.rebased.connect(self.show_rebased)
        move.failed.connect(self.show_failure)

    def _count(self, *_: object) -> None:
        super()._count()
        # A note no Task embeds still moves: Move needs no ticked row, only an idle move.
        if getattr(self, "outcome", None) is None and hasattr(self, "move_"):
            self.apply_button.setEnabled(not self.move_.busy)

    def on_apply(self) -> None:
        self.apply_button.setEnabled(False)
        self.status.setText("Moving…")
        self.move_.move(self.plan, self.model.rows)

    def show_rebased(self, rows: list[PlanRow], said: str) -> None:
        super().show_rebased(rows, said)
        self.apply_button.setEnabled(True)

    def show_moved(self, outcome: MoveOutcome) -> None:
        self.outcome = outcome
        self.applied_set = outcome.change_set
        self.apply_button.setEnabled(outcome.again)
        self.status.setText(outcome.sentence)

    def show_failure(self, text: str) -> None:
        self.status.setText(text)
        self.apply_button.setEnabled(self.outcome is None)
