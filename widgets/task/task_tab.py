"""The Prompt tab: header, banners, Edit/Preview of one agent's Task, versions, sizes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Literal

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

from app.core.models import AgentRow, BrokenEmbed, Reader, TaskDoc
from app.core.user_message import MessageKey, Severity, UserMessage
from app.core.viewer_reach import task_markers
from app.desk.preview_pipeline import PreviewResult
from app.desk.runner import Runner
from app.desk.save_intents import AfterSave
from app.desk.session import POLL_INTERVAL_MS, TaskSession
from app.desk.session_state import SessionState
from widgets.common.built_in_parts import BuiltInParts, Parts
from widgets.common.provenance import ProvenanceStrip
from widgets.editor.embeddable_model import NoteList
from widgets.preview.preview_links import PreviewLinks
from widgets.preview.size_meters import SizeMeters
from widgets.task.caret_anchor import CaretAnchor
from widgets.task.conflict_flow import ConflictFlow
from widgets.task.focus_return import FocusReturn
from widgets.task.insert_dialogs import InsertDialogs
from widgets.task.live_preview import LivePreview
from widgets.task.merge_flow import MergeFlow
from widgets.task.notes_to_insert import NotesToInsert
from widgets.task.read_only import ReadOnlyBanner, ReadOnlyTask
from widgets.task.scroll_memory import PreviewScrollMemory
from widgets.task.task_banners import TaskBanners
from widgets.task.task_commands import TaskCommands
from widgets.task.unreachable_embeds import UnreachableEmbeds
from widgets.task.work_area import TaskWorkArea
from widgets.versions.version_flow import VersionFlow
from widgets.window.actions import WindowActions
from widgets.window.agent_header import AgentHeader
from widgets.window.messages import Messages

if TYPE_CHECKING:
    from app.connect.connection import Connection
    from app.render.preview_notes import PreviewNotes
    from app.store import Draft
    from widgets.insight.insight_flow import InsightFlow
    from widgets.insight.insight_panel import InsightPanel

INSIGHT_MODULE = "widgets.insight.insight_flow"
EDIT_HINT = (
    "To edit the Task, double-click its text or press Edit (Ctrl+Shift+E); Help › Getting "
    "started has a short guide."
)
"""The side panel's flow: imported when its part is built, the last one (it pulls in the
HTTP client, the references and run views), so the tab's other modules load sooner."""
LATER_MODULES = (
    INSIGHT_MODULE,
    "rapidfuzz.fuzz",
    "rapidfuzz.distance",
    "widgets.versions.diff_view",
    "widgets.dialogs.confirm",
    "widgets.task.keep_mine_dialog",
    "widgets.versions.restore_dialog",
    "app.core.merge_layout",
    "app.core.take_change",
    "widgets.notes.move_to_note",
    "app.desk.note_extract",
    "widgets.editor.insert_picker",
)
"""Loaded on the runner before the last part, after the first Task is on screen: the note
search and the diffs import rapidfuzz on first use, which must not be a keystroke; the
comparison, the conflict's and a restore's dialogs, the merge and Move to a note load when
first used (~40 ms of imports the first Task no longer waits for), so they load here first."""


class TaskTab(QWidget, BuiltInParts):
    """One open agent's Task, as a view: the TaskSession decides load, save and conflict;
    the tab shows its state. The window feeds it a connection and an agent.

    On a server that lacks the EXTENSION endpoints (``app.connect.server_features``) what
    the tab finds out (the org id, ETags, note text) goes to the connection, and
    ``features_changed`` fires.

    Its parts: ``work_area``, ``live_preview``, ``links`` (a note's preview, a web link),
    ``conflict_flow``, ``version_flow`` and ``insert_dialogs``. Each keeps the dialog it
    has open, so tests can press its buttons.
    """

    poll_interval_ms = POLL_INTERVAL_MS  # how often the session asks the server again

    agent_shown = Signal(str)  # the agent's Task is on screen
    task_saved = Signal(object)  # AgentRow, after a confirmed save
    leave_requested = Signal(str, object)  # (what is about to happen, proceed callable)
    features_changed = Signal()  # learnt that the server lacks something (status line)
    notes_listed = Signal()  # the notes and collections to insert are in
    unsaved_changed = Signal(str, bool)  # (agent id, whether its Task has unsaved edits)
    server_polled = Signal()  # the session's poll: the window asks about embed status too

    def __init__(
        self,
        runner: Runner,
        messages: Messages,
        actions: WindowActions,
        parent: QWidget | None = None,
        *,
        staged: bool = False,
    ) -> None:
        """``staged``: only the empty widget now; ``build_more`` adds the rest a part at a
        time, so the window can build the tab between events instead of in one long pause."""
        super().__init__(parent)
        self.setObjectName("TaskTab")
        self.runner = runner
        self.messages = messages
        self.commands = actions
        self.connection: Connection | None = None
        self.session: TaskSession | None = None
        self.agent: AgentRow | None = None
        self.guild_name = ""
        self.state = SessionState()
        self._undoable_load = False
        self._repainting = False
        self.unreachable = UnreachableEmbeds(self)  # what the header and banner say of them
        self._insight: InsightFlow | None = None
        self._edit_hint_said = False  # once a session: how to start editing
        self._build_in_parts(self._build(runner, messages, actions), staged=staged)

    def _build(self, runner: Runner, messages: Messages, actions: WindowActions) -> Parts:
        """The tab's parts in the order they depend on each other (each takes 5-30 ms)."""
        self.header = AgentHeader()
        self.provenance = ProvenanceStrip()
        yield ()  # the first widgets of their kinds cost the most: two short parts, not one

        self.banners = TaskBanners()
        self.draft_banner = self.banners.draft_banner
        self.conflict_banner = self.banners.conflict_banner
        self.offline_banner = self.banners.offline_banner
        self.unreachable_banner = self.banners.unreachable_banner
        self.message_bar = self.banners.message_bar
        self.message_bar.close_on_escape(self)
        yield ()

        self.work_area = work_area = TaskWorkArea(runner, actions, staged=True)
        actions.edit.toggled.connect(self._on_editing_shown)  # actions live as long as the tab
        actions.side_by_side.toggled.connect(self._on_editing_shown)
        yield from work_area.parts  # its editor and preview, then its versions panel
        self.editor = work_area.editor
        self.preview = work_area.preview
        self.modes = work_area.modes
        self.versions = work_area.versions
        self.size_meters = SizeMeters()
        yield ()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 6)
        layout.setSpacing(6)
        layout.addWidget(self.header)
        layout.addWidget(self.provenance)
        self.read_only = ReadOnlyTask(self.editor, self.versions, actions, ReadOnlyBanner())
        layout.addWidget(self.read_only.banner)
        self.banners.add_to(layout)
        layout.addWidget(self.work_area, 1)
        layout.addWidget(self.size_meters)
        yield ()

        self.live_preview = LivePreview(
            runner=runner,
            messages=messages,
            editor=self.editor,
            panel=self.preview,
            size_meters=self.size_meters,
            banners=self.banners,
            not_an_edit=self._not_an_edit,
            server_verdicts=self.unreachable.server_verdicts,
            hidden=self.unreachable.hidden,
            parent=self,
        )
        self.notes_to_insert = NotesToInsert(runner, messages, self)
        self.notes_to_insert.listed.connect(self._on_notes_listed)
        self.live_preview.shown.connect(self.notes_to_insert.list_now)
        self.links = PreviewLinks(
            runner, self, self.unreachable.saved_paths, self._reader, self._hidden_now
        )
        self.conflict_flow = ConflictFlow(runner, messages, self)
        self.merge_flow = MergeFlow(
            runner, messages, self.work_area, self.banners.merge_banner, lambda: self.session
        )
        self.version_flow = VersionFlow(runner, messages, self.versions, self)
        yield ()

        self.insert_dialogs = InsertDialogs(
            runner, self.editor, self, lambda: self.set_mode_edit(True), lambda: self.agent
        )
        self.scroll_memory = PreviewScrollMemory(self.preview.pane)
        self.caret_anchor = CaretAnchor(self.editor)  # a banner above never hides the caret
        self.focus_return = FocusReturn(self.banners.every_banner(), work_area.focus_target, self)
        self.task_commands = TaskCommands(self)
        self._set_enabled(False)
        self.showable = True
        yield LATER_MODULES

        from widgets.insight.insight_flow import InsightFlow  # see INSIGHT_MODULE
        from widgets.insight.insight_panel import InsightPanel

        panel = InsightPanel(staged=True)  # built in one go it held the window 40-70 ms
        yield from panel.parts
        yield ()
        view_menu = getattr(actions, "view_menu", None)
        self._insight = InsightFlow(runner, messages, self, view_menu, panel, owner=self)

    @property
    def insight(self) -> InsightFlow:
        """The side panel (References, Runs, Shape) and its commands: built last, after the
        first Task is on screen (its modules are the heaviest); asked for sooner, now."""
        if self._insight is None:
            self.finish_building()
        assert self._insight is not None
        return self._insight

    @property
    def preview_notes(self) -> PreviewNotes | None:
        """The open server's notes as the preview knows them (``OpenTask``)."""
        return self.live_preview.notes

    def editor_text(self) -> str:
        return self.editor.text()

    @property
    def side_panel(self) -> InsightPanel | None:
        """The side panel once built (None before: nothing in it to move focus to)."""
        return self._insight.panel if self._insight is not None else None

    @property
    def last_preview(self) -> PreviewResult | None:
        """The newest preview shown (None until this agent's first one)."""
        return self.live_preview.last_preview

    def set_connection(self, connection: Connection) -> None:
        """A new server: a fresh session on its client and store."""
        if self.session is not None:
            self.session.close()
            self.session.deleteLater()
        self.connection = connection
        self.links.connection = connection
        self.read_only.set_person(connection.me if connection.features.me else None)
        self.live_preview.set_connection(connection)
        session = TaskSession(
            client=connection.client,
            store=connection.store,
            runner=self.runner,
            server_key=connection.server_key,
            text_source=self.editor.text,
            poll_interval_ms=self.poll_interval_ms,
            parent=self,
        )
        session.state_changed.connect(self.on_state)
        session.task_loaded.connect(self.on_task_loaded)
        session.text_restored.connect(self.on_text_restored)
        session.message.connect(self.on_session_message)
        session.drafts_found.connect(self.on_drafts_found)
        session.saved.connect(self._on_saved)
        session.polled.connect(self.server_polled)
        session.save_refused.connect(self.merge_flow.on_save_refused)
        self.session = session
        self.notes_to_insert.list_for(connection)

    def _on_notes_listed(self, notes: NoteList) -> None:
        self.editor.set_embeddable_notes(notes)
        self.notes_listed.emit()

    def set_sidebar_broken(
        self, lookup: Callable[[str], tuple[BrokenEmbed, ...]], changed: bool = False
    ) -> None:
        """The server's embed status (per agent) for the header mark and the banner;
        ``changed``: the open agent's differs from before, so its notes are asked again and
        the preview and References follow (the three marks and References agree)."""
        self.unreachable.lookup = lookup
        self.unreachable.status_known = True
        self.unreachable.show()
        self.live_preview.mark_from_server(self.unreachable.agent_cannot_reach())
        if changed:
            self.live_preview.follow_server()

    # ------------------------------------------------------------------ opening

    def open_agent(self, agent: AgentRow, guild_name: str) -> None:
        assert self.session is not None, "set_connection first"
        leaving, self.agent = self.agent, agent
        self.guild_name = guild_name
        self.header.set_agent(agent.name, guild_name, agent.task_version)
        self.work_area.show_opening_mode()
        self.message_bar.dismiss()
        self.live_preview.clear()  # until this agent's text is in the editor
        self.provenance.clear()
        self.scroll_memory.switch(leaving.id if leaving else None, agent.id)
        self.editor.set_reader(self._reader())  # the completer ranks and marks as the picker
        self.unreachable.show()
        self.live_preview.mark_from_server(self.unreachable.agent_cannot_reach())  # this agent's
        self._set_enabled(False)  # until this agent's Task (or its offline copy) is shown
        self.session.open(agent.id, agent.name)  # first writes the last agent's draft
        # The last agent's text must never stand for this one's; clearing it is no edit.
        with self._not_an_edit():
            self.editor.set_text("")

    def _say_edit_hint(self) -> None:
        """The first Task shown in Preview says how editing starts (a first start found
        nothing saying so), once a session, where the operator may edit."""
        if self._edit_hint_said or self.read_only.active or self.editor.isVisible():
            return
        self._edit_hint_said = True
        self.messages.info(EDIT_HINT, MessageKey.EDIT_HINT)

    def _on_editing_shown(self, shown: bool) -> None:
        """Edit or Side by side is on: the hint on how to start editing has been followed."""
        if shown:
            self.messages.retract(MessageKey.EDIT_HINT)

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
        self.live_preview.count_sizes()
        if self.connection is not None and self.connection.learn_from_task(doc):
            self.features_changed.emit()
        self.read_only.apply()
        if self.agent is not None and doc.agent_id == self.agent.id:
            self.live_preview.show_agent(self.agent)
            self.agent_shown.emit(doc.agent_id)
            self._say_edit_hint()

    def on_text_restored(self, text: str) -> None:
        self._set_enabled(True)
        # One edit: Undo takes back exactly this replacement, never the typing before it.
        self.editor.replace_text(text)

    def on_text_changed(self) -> None:
        if self._repainting:
            return
        if self.session is not None:
            self.session.note_edited()
        self.live_preview.schedule()

    def on_drafts_found(self, drafts: list[Draft]) -> None:
        """Drafts kept from an earlier session (a crash, a closed window): say whose they
        are; opening the agent offers each one in its DraftRecoveryBanner."""
        open_id = self.agent.id if self.agent is not None else None
        others = sorted({d.agent_name or d.agent_id for d in drafts if d.agent_id != open_id})
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
        self.merge_flow.on_state(state)
        live = state.live
        if live is not None and live is not before.live:
            self.versions.set_task(live)
            self.unreachable.show()
        if live is not None and self.agent is not None:
            self.header.set_agent(self.agent.name, self.guild_name, live.version)
            self.provenance.show_task(live)
        self.banners.show_state(state, self.agent_name())
        if before.offline and not state.offline:
            self.live_preview.server_back()
        if (state.saving and not before.saving) or (state.conflict and not before.conflict):
            self.messages.retract(MessageKey.SAVE)  # "Saved as v6." is about an older save
        self.header.set_unsaved(state.has_unsaved)
        if state.agent_id is not None:
            self.unsaved_changed.emit(state.agent_id, state.has_unsaved)
        self.preview.loading_notice.on_task_loading(state.loading)
        self.commands.save.setEnabled(state.agent_id is not None and not state.loading)
        self.commands.discard.setEnabled(state.dirty or state.conflict is not None)
        self.read_only.apply()

    def _on_saved(self, version: int) -> None:
        if self.agent is not None:
            self.task_saved.emit(self.agent)

    # ------------------------------------------------------------------ commands

    def set_mode_edit(self, edit: bool) -> None:
        self.work_area.set_mode_edit(edit and not self.read_only.active)

    def save(self) -> None:
        if self.session is not None:
            self.session.save()

    def save_then(self, proceed: Callable[[], None], purpose: str = "leave the Task") -> None:
        """Save, and run ``proceed`` once the server has confirmed the text; a refusal, a
        conflict or the server away drops it (the session owns it: ``AfterSave``)."""
        if self.session is not None:
            self.session.save(AfterSave(purpose, proceed))

    def discard(self, undoable: bool = True) -> None:
        if self.session is not None:
            self._undoable_load = undoable
            self.session.discard()

    def keep_draft(self) -> None:
        if self.session is not None:
            self.session.close()

    def shutdown(self) -> None:
        """The window is going: write the last draft, stop every timer that would start work."""
        self.live_preview.stop()
        if self.session is not None:
            self.session.close()

    def open_picker(self, kind: Literal["note", "collection"]) -> None:
        self.set_mode_edit(True)
        self.insert_dialogs.open_picker(kind)

    def open_local_history(self) -> None:
        """File › Local history: this agent's replaced texts, read off the GUI thread."""
        if self.connection is not None and self.agent is not None:
            self.insert_dialogs.open_local_history(self.connection, self.agent)

    # ------------------------------------------------------------------ helpers

    @contextmanager
    def _not_an_edit(self) -> Iterator[None]:
        """Editor changes that are no edit: re-highlighting, clearing it for another agent."""
        self._repainting = True
        try:
            yield
        finally:
            self._repainting = False

    def _hidden_now(self) -> frozenset[str]:
        """The Task embeds the agent reads and the viewer can't (``app.core.viewer_reach``)."""
        result = self.live_preview.last_preview
        pieces = result.expansion.pieces if result is not None else ()
        return self.unreachable.hidden(task_markers(pieces))

    def _reader(self) -> Reader | None:
        return Reader(self.agent.id, self.agent.guild_id) if self.agent else None

    def _set_enabled(self, enabled: bool) -> None:
        self.modes.setEnabled(enabled)
