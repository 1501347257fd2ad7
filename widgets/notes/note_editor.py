"""A note open for editing: the Task's editor, the impact of the edit before Save, the merge.

Edit or Preview (Ctrl+Shift+E / Ctrl+Shift+P, as for a Task): Preview shows the text as a
note's preview shows it, rendered by the Task preview's renderer on the runner. Save first
asks the server what the edit does to every run that reaches the note (the impact panel
fills in); when an agent would go over the budget or gain an unreachable embed, Save asks
once more. A note someone saved meanwhile comes back merged into the editor, to check and
save again; a save the server can't take now is owed and sent when it is back (Try again
now sends it at once).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut, QTextCursor
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QHBoxLayout,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.diff_model import SideBySide
from app.core.note_uses import NoteDoc, NoteImpact
from app.desk.note_blast import NoteBlast
from app.desk.note_session import NoteSession
from widgets.common.plain_text import plain_label
from widgets.dialogs.confirm import CompareDialog, ConfirmDropDialog
from widgets.editor.task_editor import TaskEditor
from widgets.notes.impact_model import impact_summary
from widgets.notes.impact_panel import ImpactPanel
from widgets.notes.note_versions import NoteVersions
from widgets.preview.preview_pane import PreviewPane

SAVED = "Saved as version {version}."
SAVED_BACK = "The server is back. Saved as version {version}."
DRAFT_PAUSE_MS = 800
"""Typing paused this long: the text is kept on disk as the note's draft."""
DRAFT_KEPT = (
    "Unsaved edits to this note from an earlier session were kept (typed on version "
    "{version}): Recover draft puts them in the editor, merged with any save since."
)
RESTORED = "An earlier text is in the editor: check it, then Save (Edit › Undo takes it back)."
NOTHING_TO_SAVE = "Nothing to save: the text is the note's live text."
MERGED_CLEAN = (
    "Someone saved this note meanwhile (now version {version}). Their changes and yours are "
    "merged here: check the text, then Save again."
)
MERGED_CONFLICTS = (
    "Someone saved this note meanwhile (now version {version}). {count} of your changes "
    "clash with theirs and are marked between <<<<<<< and >>>>>>> lines: settle them, then "
    "Save again."
)


class NoteEditorDialog(QDialog):
    """Edits one note through ``session``; ``blast`` weighs each edit before it is saved."""

    def __init__(
        self, session: NoteSession, blast: NoteBlast, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("NoteEditorDialog")
        self.setWindowTitle(session.display_path.rsplit("/", 1)[-1])
        self.session = session
        self.blast = blast
        session.setParent(self)  # both live as long as the dialog, and their signals with it
        blast.setParent(self)
        self.path = session.display_path
        self._save_pending = False  # Save pressed: save once the impact is known

        self.title_label = plain_label(session.display_path)
        self.title_label.setObjectName("title")
        self.status_label = plain_label("Loading the note…")
        self.status_label.setWordWrap(True)
        self.status_label.setObjectName("hint")
        self.editor = TaskEditor()
        self.editor.setAccessibleName("Note text")
        self.editor.setReadOnly(True)
        self.preview = PreviewPane()
        self.preview.setAccessibleName("Note preview")
        self.work = QStackedWidget()  # the editor or its preview, as the Task's work area
        self.work.addWidget(self.editor)
        self.work.addWidget(self.preview)
        self.edit_button = QPushButton("Edit")
        self.preview_button = QPushButton("Preview")
        self.modes = QButtonGroup(self)
        for index, button in enumerate((self.edit_button, self.preview_button)):
            button.setCheckable(True)
            self.modes.addButton(button, index)
        self.edit_button.setChecked(True)
        self.retry_button = QPushButton("Try again now")
        self.retry_button.setVisible(False)
        self.impact = ImpactPanel()
        self.recover_button = QPushButton("Recover draft")
        self.recover_button.setVisible(False)
        self.check_button = QPushButton("Check impact")
        self.save_button = QPushButton("Save")
        self.close_button = QPushButton("Close")
        for button in (
            self.edit_button,
            self.preview_button,
            self.recover_button,
            self.retry_button,
            self.check_button,
            self.save_button,
            self.close_button,
        ):
            button.setAccessibleName(button.text())
            button.setAutoDefault(False)
        self.edit_button.setToolTip("Edit the note's text (Ctrl+Shift+E)")
        self.preview_button.setToolTip("See the note rendered (Ctrl+Shift+P)")
        self.save_button.setEnabled(False)
        self.check_button.setEnabled(False)
        self.confirm_dialog: ConfirmDropDialog | None = None
        self.compare_dialog: CompareDialog | None = None

        self.versions = NoteVersions()
        self.versions.text_chosen.connect(self.on_version_chosen)
        top = QSplitter(Qt.Orientation.Horizontal)
        top.addWidget(self.work)
        top.addWidget(self.versions)
        top.setStretchFactor(0, 4)
        top.setStretchFactor(1, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(self.impact)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        modes = QHBoxLayout()
        modes.addWidget(self.edit_button)
        modes.addWidget(self.preview_button)
        modes.addStretch(1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.check_button)
        buttons.addWidget(self.recover_button)
        buttons.addWidget(self.retry_button)
        buttons.addStretch(1)
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title_label)
        layout.addWidget(self.status_label)
        layout.addLayout(modes)
        layout.addWidget(split, 1)
        layout.addLayout(buttons)
        self.resize(900, 700)

        self.check_button.clicked.connect(self.on_check)
        self.save_button.clicked.connect(self.on_save)
        self.close_button.clicked.connect(self.reject)
        self.impact.diff_requested.connect(self.on_diff_requested)
        session.loaded.connect(self.on_loaded)
        session.load_failed.connect(self.status_label.setText)
        session.saved.connect(self.on_saved)
        session.merged.connect(self.on_merged)
        session.save_failed.connect(self.on_save_failed)
        session.gone.connect(self.on_gone)
        session.draft_found.connect(self.on_draft_found)
        self.recover_button.clicked.connect(self.on_recover)
        self.retry_button.clicked.connect(session.retry_now)
        session.owed.connect(self.on_owed)
        session.preview_ready.connect(self.preview.show_html)
        self.edit_button.clicked.connect(lambda: self.set_mode_edit(True))
        self.preview_button.clicked.connect(lambda: self.set_mode_edit(False))
        for keys, edit in (("Ctrl+Shift+E", True), ("Ctrl+Shift+P", False)):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.activated.connect(lambda edit=edit: self.set_mode_edit(edit))
        self._loading = True  # the text the note came with is no edit: no draft for it
        self._draft_pause = QTimer(self)
        self._draft_pause.setSingleShot(True)
        self._draft_pause.setInterval(DRAFT_PAUSE_MS)
        self._draft_pause.timeout.connect(lambda: session.keep_draft(self.editor.text()))
        self.editor.textChanged.connect(self._on_text_changed)
        blast.impact_slow.connect(self.on_impact_slow)
        blast.impact_ready.connect(self.on_impact)
        blast.impact_failed.connect(self.on_impact_failed)
        blast.expanded_change_ready.connect(self.on_expanded_change)
        blast.expanded_change_failed.connect(self.on_expanded_change_failed)

    def on_impact_slow(self, _path: str) -> None:
        self.impact.show_working()

    def on_expanded_change_failed(self, _agent_id: str, text: str) -> None:
        self.status_label.setText(text)

    # ------------------------------------------------------------------ loading, saving

    def set_mode_edit(self, edit: bool) -> None:
        """Edit (the editor) or Preview (the text rendered, as it is now in the editor)."""
        (self.edit_button if edit else self.preview_button).setChecked(True)
        self.work.setCurrentWidget(self.editor if edit else self.preview)
        if edit:
            self.editor.setFocus()
        else:
            self.session.render_preview(self.editor.text())

    @property
    def in_preview(self) -> bool:
        return self.work.currentWidget() is self.preview

    def _on_text_changed(self) -> None:
        if not self._loading and not self.editor.isReadOnly():
            self._draft_pause.start()
        if self.in_preview:  # a merge or a version put in while previewing
            self.session.render_preview(self.editor.text())

    def on_draft_found(self, text: str, version: int) -> None:
        self.recover_button.setVisible(True)
        self.status_label.setText(DRAFT_KEPT.format(version=version))

    def on_recover(self) -> None:
        self.recover_button.setVisible(False)
        self.session.recover_draft()

    def on_loaded(self, doc: NoteDoc, writable: bool, reason: str) -> None:
        self.setWindowTitle(doc.file.title or self.windowTitle())
        self.title_label.setText(doc.file.title or self.path)
        self._loading = True
        self.editor.set_text(doc.text)
        self._loading = False
        self.editor.setReadOnly(not writable)
        self.save_button.setEnabled(writable)
        self.check_button.setEnabled(writable)
        self.status_label.setText(reason or f"Version {doc.version}.")
        self.versions.show_revisions(doc.revisions)
        self.versions.use_button.setVisible(writable)

    def _changed(self) -> bool:
        doc = self.session.doc
        return doc is not None and self.editor.text() != doc.text

    def on_check(self) -> None:
        self.blast.ask_impact(self.path, self.editor.text())

    def on_save(self) -> None:
        if not self._changed():
            self.status_label.setText(NOTHING_TO_SAVE)
            return
        self._save_pending = True
        self.save_button.setEnabled(False)
        self.blast.ask_impact(self.path, self.editor.text())

    def on_impact(self, path: str, rows: list[NoteImpact]) -> None:
        self.impact.show_rows(rows)
        if not self._save_pending:
            return
        self._save_pending = False
        if not self.impact.needs_confirmation:
            self._save()
            return
        dialog = ConfirmDropDialog(
            "Save this note?",
            impact_summary(rows) + ". Save it anyway?",
            "Save anyway",
            self,
        )
        self.confirm_dialog = dialog
        dialog.accepted.connect(self._save)
        dialog.rejected.connect(lambda: self.save_button.setEnabled(True))
        dialog.finished.connect(lambda _: setattr(self, "confirm_dialog", None))
        dialog.open()

    def on_impact_failed(self, path: str, text: str) -> None:
        self.impact.show_message(text)
        if self._save_pending:  # the server can't weigh it (a writer, not an operator): save
            self._save_pending = False
            self._save()

    def _save(self) -> None:
        self.save_button.setEnabled(False)
        self.status_label.setText("Saving…")
        self.session.save(self.editor.text())

    def on_owed(self, text: str) -> None:
        """The save waits for the server: Save stays on (it replaces the owed text)."""
        self.save_button.setEnabled(True)
        self.retry_button.setVisible(True)
        self.status_label.setText(text)

    def on_saved(self, doc: NoteDoc) -> None:
        self.save_button.setEnabled(True)
        back = self.retry_button.isVisibleTo(self)
        self.retry_button.setVisible(False)
        self.status_label.setText((SAVED_BACK if back else SAVED).format(version=doc.version))
        self.versions.show_revisions(doc.revisions)

    def on_version_chosen(self, text: str) -> None:
        """An earlier text in the editor as an unsaved edit: one undo step takes it back."""
        cursor = QTextCursor(self.editor.document())
        cursor.beginEditBlock()
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(text)
        cursor.endEditBlock()
        self.status_label.setText(RESTORED)

    def on_merged(self, text: str, version: int, conflicts: int) -> None:
        self.retry_button.setVisible(False)
        self.editor.set_text(text)
        self.session.keep_draft(text)
        self.save_button.setEnabled(True)
        template = MERGED_CONFLICTS if conflicts else MERGED_CLEAN
        self.status_label.setText(template.format(version=version, count=conflicts))

    def on_save_failed(self, text: str) -> None:
        self.save_button.setEnabled(True)
        self.retry_button.setVisible(self.session.save_owed)
        self.status_label.setText(text)

    def on_gone(self, text: str) -> None:
        self.retry_button.setVisible(False)
        self.save_button.setEnabled(False)
        self.check_button.setEnabled(False)
        self.status_label.setText(text)

    # ------------------------------------------------------------------ one agent's change

    def on_diff_requested(self, agent_id: str) -> None:
        self.blast.ask_expanded_change(self.path, self.editor.text(), agent_id)

    def on_expanded_change(self, agent_id: str, before: str, after: str, model: SideBySide) -> None:
        dialog = CompareDialog(f"{agent_id} now", self)
        dialog.setWindowTitle(f"{agent_id}: the expanded Task with this edit")
        dialog.keep_mine_button.setVisible(False)  # nothing to choose: it only shows
        dialog.use_theirs_button.setVisible(False)
        dialog.diff_view.set_model(model, before, after, f"{agent_id} now", "With this edit")
        self.compare_dialog = dialog
        dialog.finished.connect(lambda _: setattr(self, "compare_dialog", None))
        dialog.open()
