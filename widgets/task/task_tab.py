"""The Prompt tab: header, banners, Edit/Preview of one agent's Task, versions, sizes.

Wiring only: the TaskSession decides load, save and conflict; the widgets show its state.
On a server that lacks the EXTENSION endpoints (``app.connect.server_features``) what the tab finds
out (the org id, ETags, note text) goes to the connection, and ``features_changed`` fires.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QSplitter, QStackedWidget, QVBoxLayout, QWidget

from app.core.expander import (
    CollectionPiece,
    MarkerPiece,
    NotePiece,
    Piece,
    RepeatPiece,
    level_of,
    task_display_path,
)
from app.core.limits import utf8_len
from app.core.models import AgentRow, BrokenEmbed, Reader, TaskDoc
from app.core.user_message import MessageKey, Severity, UserMessage
from app.desk.failures import describe_failure, failure_text
from app.desk.preview_pipeline import PreviewContext, PreviewPipeline, PreviewResult
from app.desk.runner import Runner
from app.desk.session import TaskSession
from app.desk.session_state import SessionState
from app.render.preview_notes import PreviewNotes
from widgets.common.provenance import ProvenanceStrip
from widgets.dialogs.confirm import (
    CompareDialog,
    ConfirmDropDialog,
    ConfirmRestoreDialog,
    OpenLinkDialog,
    diff_summary,
)
from widgets.editor.find_bar import FindBar
from widgets.editor.highlighter import EmbedVerdict
from widgets.editor.insert_picker import InsertPickerDialog
from widgets.editor.task_editor import TaskEditor
from widgets.preview.preview_panel import PreviewPanel
from widgets.preview.size_meters import SizeMeters
from widgets.versions.versions_panel import VersionsPanel
from widgets.window.actions import WindowActions
from widgets.window.agent_header import AgentHeader
from widgets.window.banners import (
    BudgetBanner,
    ConflictBanner,
    DraftRecoveryBanner,
    MessageBar,
    OfflineBanner,
    UnreachableBanner,
)
from widgets.window.messages import Messages

SIZE_DEBOUNCE_MS = 150  # counting 256 KB of UTF-8 on every keystroke would stall typing
_NO_NOTE_TEXT = "This server doesn't share note text, so the note can't be shown here."


class TaskTab(QWidget):
    """One open agent's Task. The window feeds it a connection and an agent."""

    agent_shown = Signal(str)  # the agent's Task is on screen
    task_saved = Signal(object)  # AgentRow, after a confirmed save
    leave_requested = Signal(str, object)  # (what is about to happen, proceed callable)
    features_changed = Signal()  # learnt that the server lacks something (status line)

    def __init__(
        self,
        runner: Runner,
        messages: Messages,
        actions: WindowActions,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("TaskTab")
        self.runner = runner
        self.messages = messages
        self.commands = actions
        self.connection: Any = None
        self.session: TaskSession | None = None
        self.pipeline: PreviewPipeline | None = None
        self.last_preview: PreviewResult | None = None
        self.link_dialog: OpenLinkDialog | None = None
        self.note_dialog: QWidget | None = None
        self.history_dialog: QWidget | None = None  # File › Local history, while open
        self._notice: str | None = None
        self.agent: AgentRow | None = None
        self.guild_name = ""
        self.state = SessionState()
        self.picker: InsertPickerDialog | None = None
        self.confirm_dialog: ConfirmDropDialog | None = None
        self.restore_dialog: ConfirmRestoreDialog | None = None
        self.compare_dialog: CompareDialog | None = None
        self._after_save: list[Callable[[], None]] = []
        self._undoable_load = False
        self._repainting = False
        self._sidebar_broken: Callable[[str], tuple[BrokenEmbed, ...]] = lambda _id: ()

        self.header = AgentHeader()
        self.provenance = ProvenanceStrip()
        self.draft_banner = DraftRecoveryBanner()
        self.conflict_banner = ConflictBanner()
        self.offline_banner = OfflineBanner()
        self.unreachable_banner = UnreachableBanner()
        self.budget_banner = BudgetBanner()
        self.message_bar = MessageBar()
        banner: QWidget
        for banner in (
            self.draft_banner,
            self.conflict_banner,
            self.offline_banner,
            self.unreachable_banner,
            self.budget_banner,
        ):
            banner.hide()

        self.editor = TaskEditor()
        self.find_bar = FindBar(self.editor)
        self.find_bar.hide()
        edit_page = QWidget()
        edit_layout = QVBoxLayout(edit_page)
        edit_layout.setContentsMargins(0, 0, 0, 0)
        edit_layout.setSpacing(0)
        edit_layout.addWidget(self.editor, 1)
        edit_layout.addWidget(self.find_bar)
        self.preview = PreviewPanel(runner=runner)
        self.modes = QStackedWidget()
        self.modes.addWidget(self.preview)
        self.modes.addWidget(edit_page)
        self._edit_page = edit_page

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.modes)
        self.versions = VersionsPanel()
        self.versions.hide()
        self.splitter.addWidget(self.versions)
        self.splitter.setStretchFactor(0, 1)

        self.size_meters = SizeMeters()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 6)
        layout.setSpacing(6)
        layout.addWidget(self.header)
        layout.addWidget(self.provenance)
        for banner in (
            self.draft_banner,
            self.conflict_banner,
            self.offline_banner,
            self.unreachable_banner,
            self.budget_banner,
            self.message_bar,
        ):
            layout.addWidget(banner)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.size_meters)

        self._size_timer = QTimer(self)
        self._size_timer.setSingleShot(True)
        self._size_timer.setInterval(SIZE_DEBOUNCE_MS)
        self._size_timer.timeout.connect(self._update_sizes)
        self._wire()
        self._set_enabled(False)

    # ------------------------------------------------------------------ wiring

    def _wire(self) -> None:
        a = self.commands
        a.preview.triggered.connect(lambda: self.set_mode_edit(False))
        a.edit.triggered.connect(lambda: self.set_mode_edit(True))
        a.save.triggered.connect(lambda: self.save())
        a.discard.triggered.connect(lambda: self.discard(undoable=True))
        a.insert_note.triggered.connect(lambda: self.open_picker("note"))
        a.insert_table.triggered.connect(lambda: self.open_picker("collection"))
        a.find.triggered.connect(self.on_find)
        a.local_history.triggered.connect(self.open_local_history)
        a.versions.toggled.connect(self.show_versions)
        self.versions.compare_requested.connect(self.on_compare_version)
        self.versions.restore_requested.connect(self.on_restore_requested)
        self.conflict_banner.compare_button.clicked.connect(self.on_compare_conflict)
        self.editor.textChanged.connect(self.on_text_changed)
        self.editor.find_requested.connect(self.on_find)
        self.editor.replace_requested.connect(self.find_bar.show_replace)
        self.preview.edit_requested.connect(lambda: self.set_mode_edit(True))
        self.preview.link_blocked.connect(self.messages.info)
        self.preview.external_link_requested.connect(self.on_external_link)
        self.preview.embed_clicked.connect(self.on_embed_clicked)
        self.unreachable_banner.embed_activated.connect(self.on_embed_clicked)
        self.conflict_banner.keep_mine_button.clicked.connect(self.on_keep_mine)
        self.conflict_banner.use_theirs_button.clicked.connect(self.on_use_theirs)
        self.offline_banner.retry_button.clicked.connect(self._retry)
        self.draft_banner.recover_button.clicked.connect(self._recover_draft)
        self.draft_banner.discard_button.clicked.connect(self._dismiss_draft)

    def set_connection(self, connection: Any) -> None:
        """A new server: a fresh session on its client and store."""
        if self.session is not None:
            self.session.close()
            self.session.deleteLater()
        if self.pipeline is not None:
            self.pipeline.set_context(None)
            self.pipeline.deleteLater()
        self.connection = connection
        notes = PreviewNotes(connection.client, connection.store, connection.server_key)
        pipeline = PreviewPipeline(
            runner=self.runner, notes=notes, text_source=self.editor.text, parent=self
        )
        pipeline.ready.connect(self.on_preview)
        pipeline.message.connect(self.messages.show)
        self.pipeline = pipeline
        session = TaskSession(
            client=connection.client,
            store=connection.store,
            runner=self.runner,
            server_key=connection.server_key,
            text_source=self.editor.text,
            parent=self,
        )
        session.state_changed.connect(self.on_state)
        session.task_loaded.connect(self.on_task_loaded)
        session.text_restored.connect(self.on_text_restored)
        session.message.connect(self.on_session_message)
        session.drafts_found.connect(self.on_drafts_found)
        self.session = session
        self.runner.submit(
            connection.client.embeddable_notes,
            on_done=self.editor.set_embeddable_notes,
            on_error=lambda exc: self.messages.warning(
                f"The notes to insert could not be listed: {getattr(exc, 'message', exc)}"
            ),
        )

    def set_sidebar_broken(self, lookup: Callable[[str], tuple[BrokenEmbed, ...]]) -> None:
        """The server's embed status (per agent) for the header mark and the banner."""
        self._sidebar_broken = lookup
        self._show_broken()
        if self.last_preview is not None and self.last_preview.unsupported:
            self._repainting = True  # re-highlighting is not an edit
            try:
                self.editor.set_verdicts(self._server_verdicts())
            finally:
                self._repainting = False

    # ------------------------------------------------------------------ opening

    def open_agent(self, agent: AgentRow, guild_name: str) -> None:
        assert self.session is not None, "set_connection first"
        self.agent = agent
        self.guild_name = guild_name
        self.header.set_agent(agent.name, guild_name, agent.task_version)
        self.set_mode_edit(False)
        self.message_bar.dismiss()
        self.last_preview = None
        if self.pipeline is not None:
            self.pipeline.set_context(None)  # until this agent's text is in the editor
        self._show_broken()
        self._set_enabled(False)  # until this agent's Task (or its offline copy) is shown
        self.session.open(agent.id, agent.name)  # first writes the last agent's draft
        # The last agent's text must never stand for this one's; clearing it is no edit.
        self._repainting = True
        try:
            self.editor.set_text("")
        finally:
            self._repainting = False

    def agent_name(self) -> str:
        return self.agent.name if self.agent else ""

    def has_unsaved(self) -> bool:
        return self.session is not None and self.session.has_unsaved()

    # ------------------------------------------------------------------ session → widgets

    def on_task_loaded(self, doc: TaskDoc) -> None:
        # Synchronously: the session relies on it. After Discard the text is replaced as one
        # edit, so Edit › Undo (Ctrl+Z) brings the discarded words back.
        if self._undoable_load:
            self._undoable_load = False
            self.on_text_restored(doc.content)
        else:
            self.editor.set_text(doc.content)
        self._set_enabled(True)
        self._update_sizes()
        if self.connection is not None and self.connection.learn_from_task(doc):
            self.features_changed.emit()
        self._preview_as(doc.agent_id)
        if self.agent is not None and doc.agent_id == self.agent.id:
            self.agent_shown.emit(doc.agent_id)

    def on_text_restored(self, text: str) -> None:
        self._set_enabled(True)
        cursor = QTextCursor(self.editor.document())
        # One edit block: Undo takes back exactly this replacement, never the typing before it.
        cursor.beginEditBlock()
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(text)
        cursor.endEditBlock()

    def on_text_changed(self) -> None:
        if self._repainting:
            return
        if self.session is not None:
            self.session.note_edited()
        if self.pipeline is not None:
            self.pipeline.schedule()
        self._size_timer.start()

    def _preview_as(self, agent_id: str) -> None:
        agent, connection, pipeline = self.agent, self.connection, self.pipeline
        if agent is None or agent.id != agent_id or connection is None or pipeline is None:
            return
        org = connection.me.org_id
        pipeline.set_context(
            PreviewContext(org, Reader(agent.id, agent.guild_id), task_display_path(org, agent.id))
        )

    def on_preview(self, result: PreviewResult) -> None:
        """A fresh expansion of the editor text: exactly what a run would get."""
        self.last_preview = result
        expansion = result.expansion
        self.preview.show_preview(result.html, expansion.text)
        connection = self.connection
        if result.unsupported and connection is not None and connection.learn_note_text(False):
            self.features_changed.emit()
        # Without note text the preview can't tell what reaches its file: the server's
        # embed status marks the unreachable ones, the rest stay unmarked.
        verdicts = self._server_verdicts() if result.unsupported else None
        # Re-highlighting emits textChanged without changing a character: not an edit.
        self._repainting = True
        try:
            self.editor.set_verdicts(
                verdicts if verdicts is not None else embed_verdicts(expansion.pieces)
            )
        finally:
            self._repainting = False
        self.size_meters.set_sizes(utf8_len(self.editor.text()), expansion.embedded_bytes)
        self.budget_banner.setVisible(expansion.over_budget)
        if expansion.over_budget:
            self.budget_banner.set_embedded_bytes(expansion.embedded_bytes)
        if result.notice and result.notice != self._notice:
            self.messages.warning(result.notice)
        self._notice = result.notice

    def on_external_link(self, url: str) -> None:
        """A link out of Taskdesk: show the full address, open only when the operator says."""
        from PySide6.QtCore import QUrl
        from PySide6.QtGui import QDesktopServices

        dialog = OpenLinkDialog(url, self)
        self.link_dialog = dialog
        dialog.accepted.connect(lambda: QDesktopServices.openUrl(QUrl(url)))
        dialog.finished.connect(lambda _: setattr(self, "link_dialog", None))
        dialog.open()

    def on_embed_clicked(self, path: str) -> None:
        """Preview the embedded note (fetched and rendered off the GUI thread)."""
        from app.render.preview_html import render_markdown

        connection = self.connection
        if connection is None:
            return
        if connection.features.note_text is False:
            self._show_note("", path, level_of(path), None, None, _NO_NOTE_TEXT)
            return
        broken = {b.path for b in self._sidebar_broken(self.agent.id)} if self.agent else set()

        def fetch() -> tuple[Any, str | None]:
            note = connection.client.note(path)
            html = render_markdown(note.text) if note.text is not None else None
            return note, html

        def show(found: tuple[Any, str | None]) -> None:
            note, html = found
            reachable = html is not None and path not in broken
            self._show_note(
                note.title,
                path,
                level_of(path),
                html if reachable else None,
                note.version,
                "" if reachable else "The agent can't read it.",
            )

        def failed(exc: BaseException) -> None:
            self._show_note("", path, level_of(path), None, None, failure_text(exc))

        self.runner.submit(fetch, on_done=show, on_error=failed)

    def _show_note(
        self, title: str, path: str, level: str, html: str | None, version: int | None, reason: str
    ) -> None:
        from widgets.preview.note_preview import NotePreviewDialog

        dialog = NotePreviewDialog(title, path, level, html, version, self, reason=reason)
        dialog.browser.embed_clicked.connect(self.on_embed_clicked)
        dialog.browser.external_link_requested.connect(self.on_external_link)
        self.note_dialog = dialog
        dialog.finished.connect(lambda _: setattr(self, "note_dialog", None))
        dialog.open()

    def on_drafts_found(self, drafts: list[Any]) -> None:
        """Drafts kept from an earlier session (a crash, a closed window): say whose they
        are; opening the agent offers each one in its DraftRecoveryBanner."""
        others = sorted(
            {
                d.agent_name or d.agent_id
                for d in drafts
                if self.agent is None or d.agent_id != self.agent.id
            }
        )
        if others:
            self.messages.warning(
                f"Unsaved edits from an earlier session were kept for: {', '.join(others)}. "
                "Open the agent to recover them."
            )

    def on_session_message(self, message: UserMessage) -> None:
        if (
            message.key in (MessageKey.CONFLICT, MessageKey.DRAFT)
            and message.severity is Severity.WARNING
        ):
            return  # their banners say it, with the buttons to act on it
        self.messages.show(message)

    def on_state(self, state: SessionState) -> None:
        before, self.state = self.state, state
        live = state.live
        if live is not None and live is not before.live:
            self.versions.set_task(live)
        if live is not None and self.agent is not None:
            self.header.set_agent(self.agent.name, self.guild_name, live.version)
            self.provenance.set_provenance(live.updated_by_name, live.updated_at, live.version)
        self.conflict_banner.setVisible(state.conflict is not None)
        if state.conflict is not None:
            self.conflict_banner.set_conflict(
                state.conflict.updated_by_name or "", state.conflict.version
            )
        self.offline_banner.setVisible(state.offline)
        if state.offline:
            self.offline_banner.set_as_of(state.offline_as_of)
        self.draft_banner.setVisible(state.draft is not None)
        if state.draft is not None:
            self.draft_banner.set_draft(
                self.agent_name(), state.draft.base_version or 0, state.draft.saved_at
            )
        self.commands.save.setEnabled(state.agent_id is not None and not state.loading)
        self.commands.discard.setEnabled(state.dirty or state.conflict is not None)
        saved_now = (
            (before.saving or before.dirty)
            and state.saved_text_confirmed
            and not (state.dirty or state.saving)
        )
        if saved_now and before.agent_id == state.agent_id and self.agent is not None:
            self.task_saved.emit(self.agent)
            waiting, self._after_save = self._after_save, []
            for proceed in waiting:
                proceed()
        elif self._after_save and state.conflict is not None:
            self._after_save = []  # the save became a conflict: the operator chooses first

    # ------------------------------------------------------------------ commands

    def set_mode_edit(self, edit: bool) -> None:
        if self.commands.versions.isChecked():
            self.commands.versions.setChecked(False)  # back from the versions to the text
        self.modes.setCurrentWidget(self._edit_page if edit else self.preview)
        (self.commands.edit if edit else self.commands.preview).setChecked(True)
        if edit:
            self.editor.setFocus()

    def save(self) -> None:
        if self.session is not None:
            self.session.save()

    def save_then(self, proceed: Callable[[], None]) -> None:
        """Save, and run ``proceed`` once the server has confirmed the text."""
        self._after_save.append(proceed)
        self.save()

    def discard(self, undoable: bool = True) -> None:
        if self.session is not None:
            self._undoable_load = undoable
            self.session.discard()

    def keep_draft(self) -> None:
        if self.session is not None:
            self.session.close()

    def shutdown(self) -> None:
        """The window is going: write the last draft, stop every timer that would start work."""
        self._size_timer.stop()
        if self.pipeline is not None:
            self.pipeline.set_context(None)
            self.pipeline = None  # late callbacks (a discard landing) must not start a preview
        if self.session is not None:
            self.session.close()

    def on_find(self) -> None:
        self.set_mode_edit(True)
        self.find_bar.show_find()

    def open_picker(self, kind: str) -> None:
        self.set_mode_edit(True)
        picker = InsertPickerDialog(
            self.editor.embeddable_model, "note" if kind == "note" else "collection", self
        )
        self.picker = picker

        def done(result: int) -> None:
            path = picker.chosen_path()
            if result and path:
                self.editor.insert_embed(path)
                self.editor.setFocus()
            self.picker = None
            picker.deleteLater()

        picker.finished.connect(done)
        picker.open()

    def open_local_history(self) -> None:
        """File › Local history: this agent's replaced texts, read off the GUI thread."""
        from widgets.versions.local_history_dialog import LocalHistoryDialog, insert_at_cursor

        connection, agent = self.connection, self.agent
        if connection is None or agent is None or connection.store is None:
            return
        store, key, agent_id = connection.store, connection.server_key, agent.id
        dialog = LocalHistoryDialog(
            agent.name, lambda: store.history(key, agent_id), self.runner, self
        )

        def insert(text: str) -> None:
            self.set_mode_edit(True)
            insert_at_cursor(self.editor, text)  # one undo step, at the cursor

        dialog.insert_requested.connect(insert)

        def closed() -> None:
            self.history_dialog = None
            dialog.deleteLater()

        dialog.finished.connect(closed)
        self.history_dialog = dialog
        dialog.load()
        dialog.open()

    def on_keep_mine(self) -> None:
        self._close_compare()
        if self.session is not None:
            self.session.keep_mine()

    def show_versions(self, shown: bool) -> None:
        """The versions take the editor's place: comparing needs the width more than editing."""
        self.versions.setVisible(shown)
        self.modes.setVisible(not shown)
        if not shown:
            self.set_mode_edit(self.commands.edit.isChecked())

    def on_compare_version(self, version: int, old: str, live: str) -> None:
        from app.core.diff_model import build_diff

        self.runner.submit(
            lambda: build_diff(old, live),  # 256 KB texts take a while: never on the GUI thread
            on_done=lambda model: self.versions.show_compare_model(version, model),
            on_error=lambda exc: self.messages.show(
                describe_failure(exc, doing="The versions could not be compared")
            ),
        )

    def on_compare_conflict(self) -> None:
        from app.core.diff_model import build_diff

        theirs = self.state.conflict
        if theirs is None:
            return
        mine = self.editor.text()
        who = theirs.updated_by_name or "theirs"
        dialog = CompareDialog(f"v{theirs.version} by {who}", self)
        dialog.keep_mine_button.clicked.connect(self.on_keep_mine)
        dialog.use_theirs_button.clicked.connect(self.on_use_theirs)
        self._close_compare()
        self.compare_dialog = dialog
        dialog.open()
        self.runner.submit(
            lambda: build_diff(theirs.content, mine),
            on_done=lambda model: dialog.diff_view.set_model(model, theirs.content, mine),
            on_error=lambda exc: self.messages.show(
                describe_failure(exc, doing="The texts could not be compared")
            ),
        )

    def _close_compare(self) -> None:
        dialog, self.compare_dialog = self.compare_dialog, None
        if dialog is not None:
            dialog.close()
            dialog.deleteLater()

    def on_restore_requested(self, version: int) -> None:
        """Restore asks first: unsaved edits (Save/Discard/Cancel), then what changes."""
        self.leave_requested.emit(f"restore v{version}", lambda: self._confirm_restore(version))

    def _confirm_restore(self, version: int) -> None:
        from app.core.diff_model import build_diff

        live = self.state.live
        row = self.versions.model.row_of_version(version)
        revision = self.versions.model.row_at(row) if row is not None else None
        if self.session is None or live is None or revision is None:
            return
        old = revision.content

        def ask(model: object) -> None:
            removed = sum(c.new_end - c.new_start for c in model.changes)  # type: ignore[attr-defined]
            added = sum(c.old_end - c.old_start for c in model.changes)  # type: ignore[attr-defined]
            dialog = ConfirmRestoreDialog(version, live.version, diff_summary(removed, added), self)
            self.restore_dialog = dialog
            session = self.session
            if session is not None:
                dialog.accepted.connect(lambda: session.restore(version))
            dialog.finished.connect(lambda _: setattr(self, "restore_dialog", None))
            dialog.open()

        self.runner.submit(
            lambda: build_diff(old, live.content),
            on_done=ask,
            on_error=lambda exc: self.messages.show(
                describe_failure(exc, doing="The versions could not be compared")
            ),
        )

    def on_use_theirs(self) -> None:
        conflict = self.state.conflict
        if self.session is None or conflict is None:
            return
        who = conflict.updated_by_name or "the other"
        dialog = ConfirmDropDialog(
            "Use theirs",
            f"Replace your text with v{conflict.version} by {who}? Your text is kept in "
            "local history on this computer.",
            "Use theirs",
            self,
        )
        self.confirm_dialog = dialog
        session = self.session
        dialog.accepted.connect(self._close_compare)
        dialog.accepted.connect(session.use_theirs)
        dialog.finished.connect(lambda _: setattr(self, "confirm_dialog", None))
        dialog.open()

    def _retry(self) -> None:
        if self.session is not None:
            self.session.retry_now()

    def _recover_draft(self) -> None:
        if self.session is not None:
            self.session.recover_draft()
            self.set_mode_edit(True)

    def _dismiss_draft(self) -> None:
        if self.session is not None:
            self.session.dismiss_draft()

    # ------------------------------------------------------------------ helpers

    def _show_broken(self) -> None:
        broken = self._sidebar_broken(self.agent.id) if self.agent else ()
        names = [b.path for b in broken]
        self.header.set_unreachable(bool(broken), names)
        self.unreachable_banner.setVisible(bool(broken))
        if broken and self.agent is not None and self.connection is not None:
            org = self.connection.me.org_id
            self.unreachable_banner.set_broken(broken, task_display_path(org, self.agent.id))

    def _server_verdicts(self) -> dict[str, EmbedVerdict]:
        broken = self._sidebar_broken(self.agent.id) if self.agent else ()
        return {b.path: "unreachable" for b in broken if b.hop == 1}

    def _update_sizes(self) -> None:
        self.size_meters.set_sizes(utf8_len(self.editor.text()))

    def _set_enabled(self, enabled: bool) -> None:
        self.modes.setEnabled(enabled)


def embed_verdicts(pieces: Sequence[Piece]) -> dict[str, EmbedVerdict]:
    """What the run made of each of the Task's own embeds, for the editor's highlighting.

    A path embedded twice is inlined once and repeated after: the first verdict counts.
    """
    verdicts: dict[str, EmbedVerdict] = {}
    for piece in pieces:
        verdict: EmbedVerdict | None = None
        if isinstance(piece, NotePiece):
            verdict = "inlined"
        elif isinstance(piece, CollectionPiece):
            verdict = "collection"
        elif isinstance(piece, RepeatPiece):
            verdict = "repeat"
        elif isinstance(piece, MarkerPiece):
            verdict = "unreachable"
        if verdict is not None:
            verdicts.setdefault(piece.path, verdict)  # type: ignore[union-attr]
    return verdicts
