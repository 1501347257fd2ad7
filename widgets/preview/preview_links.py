"""Where a click in a preview goes: an embed opens its note, a web link asks first."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QUrl, Signal
from PySide6.QtWidgets import QWidget

from app.core.models import Reader
from app.core.viewer_reach import AGENT_READS_IT
from app.desk.note_loader import NO_NOTE_TEXT, NoteView, load_note_view
from app.desk.runner import Runner

if TYPE_CHECKING:
    from app.connect.connection import Connection
    from widgets.dialogs.confirm import OpenLinkDialog  # loaded when a link is first opened
    from widgets.notes.preview_actions import NoteActions
    from widgets.preview.note_preview import NotePreviewDialog


class PreviewLinks(QObject):
    """Opens an embedded note's preview (fetched on the runner) or a web link (after asking).

    The dialog on screen is kept (``note_dialog``, ``link_dialog``) so tests can press its
    buttons. ``broken_paths`` names the embeds the open agent can't reach.
    """

    agent_requested = Signal(str)  # an agent named in a note's preview (who uses it): open it

    def __init__(
        self,
        runner: Runner,
        owner: QWidget,
        broken_paths: Callable[[], Collection[str]],
        reader: Callable[[], Reader | None] = lambda: None,
        hidden_paths: Callable[[], Collection[str]] = frozenset,
    ) -> None:
        """``hidden_paths``: the embeds the agent reads and the viewer may not."""
        super().__init__(owner)
        self._hidden_paths = hidden_paths
        self._runner = runner
        self._owner = owner  # the dialogs' parent
        self._broken_paths = broken_paths
        self._reader = reader  # the open agent, whose access decides what is reachable
        self.connection: Connection | None = None
        self.link_dialog: OpenLinkDialog | None = None
        self.note_dialog: NotePreviewDialog | None = None
        self.note_actions: NoteActions | None = None  # the open preview's used-by, Edit, Delete

    def on_external_link(self, url: str) -> None:
        """A link out of Taskdesk: show the full address, open only when the operator says."""
        from PySide6.QtGui import QDesktopServices

        from widgets.dialogs.confirm import OpenLinkDialog

        dialog = OpenLinkDialog(url, self._owner)
        self.link_dialog = dialog
        dialog.accepted.connect(lambda: QDesktopServices.openUrl(QUrl(url)))
        dialog.finished.connect(lambda _: setattr(self, "link_dialog", None))
        dialog.open()

    def on_embed_clicked(self, path: str) -> None:
        """Preview the embedded note (fetched and rendered off the GUI thread)."""
        connection = self.connection
        if connection is None:
            return
        if connection.features.note_text is False:
            self.show_note(NoteView.unavailable(path, NO_NOTE_TEXT))
            return
        if path in self._hidden_paths():
            self.show_note(NoteView.unavailable(path, AGENT_READS_IT))
            return
        broken = set(self._broken_paths())
        load_note_view(
            self._runner, connection.client, path, broken, self.show_note, self._reader()
        )

    def show_note(self, view: NoteView) -> None:
        from widgets.preview.note_preview import (
            NOT_REACHABLE,
            NOT_REACHABLE_TABLE,
            NotePreviewDialog,
        )

        dialog = NotePreviewDialog(
            view.title,
            view.path,
            view.level,
            view.html,
            view.version,
            self._owner,
            reason=view.reason,
            about=view.about,
            unreachable=(
                ""  # the agent reads it: not a failure, only the viewer's view is limited
                if view.reason == AGENT_READS_IT
                else NOT_REACHABLE_TABLE
                if view.kind == "collection"
                else NOT_REACHABLE
            ),
        )
        dialog.browser.embed_clicked.connect(self.on_embed_clicked)
        dialog.browser.external_link_requested.connect(self.on_external_link)
        connection = self.connection
        # Who uses the note, Edit and Delete; a server without them says so in one line.
        if connection is not None and (view.version is not None or not connection.features.me):
            from widgets.notes.preview_actions import NoteActions  # only for a note's preview

            self.note_actions = NoteActions(
                dialog, view.path, view.kind, self._runner, connection, self.agent_requested,
                found=view.version is not None,
            )  # fmt: skip
        self.note_dialog = dialog
        dialog.finished.connect(lambda _: setattr(self, "note_dialog", None))
        dialog.open()
