"""A note's preview made first-class: who uses it, Edit, and Delete with the agents listed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, SignalInstance
from PySide6.QtWidgets import QPushButton, QWidget

from app.desk.note_blast import NoteBlast
from app.desk.note_drafts import NoteDrafts
from app.desk.note_session import NoteSession
from app.desk.runner import Runner
from widgets.dialogs.confirm import ConfirmDropDialog
from widgets.notes.used_by_panel import UsedByPanel

if TYPE_CHECKING:
    from app.connect.connection import Connection
    from widgets.notes.note_editor import NoteEditorDialog
    from widgets.preview.note_preview import NotePreviewDialog

EMBEDDED = (
    "This note can't be deleted: the Tasks of these agents embed it. Open each one and remove "
    "the embed first."
)


def make_blast(runner: Runner, connection: Connection, parent: QObject | None) -> NoteBlast:
    """The controller for one screen, over the connection's client."""
    guilds = {a.id: a.guild_id for a in connection.agents}
    return NoteBlast(
        runner,
        connection.client,
        is_operator=connection.me.type == "operator",
        org_id=connection.me.org_id,
        guild_of=guilds.get,
        extensions=connection.features.me,  # a spec-only server has no used-by or impact
        parent=parent,
    )


def open_note_editor(
    runner: Runner, connection: Connection, path: str, owner: QWidget | None
) -> NoteEditorDialog:
    """The note at ``path`` in its editor, loading (File › Open note…, Edit in a preview)."""
    from widgets.notes.note_editor import NoteEditorDialog

    said: list[NoteEditorDialog] = []  # where a draft's failure is said, once the dialog is made
    drafts = NoteDrafts(
        runner,
        connection.store,
        connection.server_key,
        lambda text: said[0].status_label.setText(text) if said else None,
    )
    session = NoteSession(runner, connection.client, connection.me, path, drafts=drafts)
    editor = NoteEditorDialog(session, make_blast(runner, connection, None), owner)
    said.append(editor)
    editor.open()
    session.load()
    return editor


class NoteActions(QObject):
    """Lives as long as the preview ``dialog``; opens the editor and asks for used-by."""

    def __init__(
        self,
        dialog: NotePreviewDialog,
        path: str,
        kind: str,
        runner: Runner,
        connection: Connection,
        agent_requested: SignalInstance,
        *,
        found: bool = True,
    ) -> None:
        """``found``: the note was read (a spec-only server shares no note: nothing to edit)."""
        super().__init__(dialog)
        self.dialog = dialog
        self.path = path
        self._runner = runner
        self._connection = connection
        self.blast = make_blast(runner, connection, self)
        self.used_by = UsedByPanel()
        dialog.add_section(self.used_by)
        self.used_by.agent_activated.connect(agent_requested)
        self.edit_button = QPushButton("Edit")
        self.edit_button.setAccessibleName("Edit the note")
        self.edit_button.setVisible(found and kind == "note")
        self.edit_button.clicked.connect(self.on_edit)
        self.delete_button = QPushButton("Delete…")
        self.delete_button.setAccessibleName("Delete the note")
        self.delete_button.setVisible(found and connection.me.type == "operator")
        self.delete_button.clicked.connect(self.on_delete)
        dialog.add_button(self.edit_button)
        dialog.add_button(self.delete_button)
        self.editor: NoteEditorDialog | None = None
        self.confirm_dialog: ConfirmDropDialog | None = None
        guild_names = {g.id: g.name for g in connection.guilds}
        self.blast.used_by_ready.connect(
            lambda found: self.used_by.show_used_by(found, guild_names)
        )
        self.blast.used_by_failed.connect(lambda _path, text: self.used_by.show_message(text))
        self.blast.delete_refused.connect(
            lambda _path, ids: self.used_by.show_agents(ids, EMBEDDED)
        )
        self.blast.delete_failed.connect(lambda _path, text: self.used_by.show_message(text))
        self.blast.deleted.connect(lambda _path: dialog.accept())
        self.blast.ask_used_by(path)

    def on_edit(self) -> None:
        self.editor = open_note_editor(
            self._runner, self._connection, self.path, self.dialog.parentWidget()
        )

    def on_delete(self) -> None:
        dialog = ConfirmDropDialog(
            "Delete this note?",
            f"Delete {self.path}? Runs that embed it will get the marker in its place.",
            "Delete",
            self.dialog,
        )
        self.confirm_dialog = dialog
        dialog.accepted.connect(lambda: self.blast.delete(self.path))
        dialog.finished.connect(lambda _: setattr(self, "confirm_dialog", None))
        dialog.open()
