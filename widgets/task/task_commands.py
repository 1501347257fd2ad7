"""The Prompt tab's commands and banner buttons, wired to what each asks of its session."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Literal, Protocol

from widgets.notes.move_flow import MoveToNoteFlow, OpenNoteFlow
from widgets.task.click_to_edit import place_cursor
from widgets.task.draft_compare import DraftCompare

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from app.connect.connection import Connection
    from app.core.models import AgentRow, BrokenEmbed
    from app.desk.runner import Runner
    from app.desk.session import TaskSession
    from app.desk.session_state import SessionState
    from widgets.editor.task_editor import TaskEditor
    from widgets.preview.preview_links import PreviewLinks
    from widgets.preview.preview_panel import PreviewPanel
    from widgets.task.conflict_flow import ConflictFlow
    from widgets.task.live_preview import LivePreview
    from widgets.task.merge_flow import MergeFlow
    from widgets.task.unreachable_embeds import UnreachableEmbeds
    from widgets.task.work_area import TaskWorkArea
    from widgets.versions.version_flow import VersionFlow
    from widgets.versions.versions_panel import VersionsPanel
    from widgets.window.actions import WindowActions
    from widgets.window.banners import (
        ConflictBanner,
        DraftRecoveryBanner,
        OfflineBanner,
        UnreachableBanner,
    )
    from widgets.window.messages import Messages


class TaskParts(Protocol):
    """The parts of the Prompt tab its commands wire together (the Task tab is one)."""

    commands: WindowActions
    messages: Messages
    work_area: TaskWorkArea
    versions: VersionsPanel
    version_flow: VersionFlow
    editor: TaskEditor
    preview: PreviewPanel
    links: PreviewLinks
    live_preview: LivePreview
    unreachable: UnreachableEmbeds
    conflict_flow: ConflictFlow
    merge_flow: MergeFlow
    conflict_banner: ConflictBanner
    unreachable_banner: UnreachableBanner
    offline_banner: OfflineBanner
    draft_banner: DraftRecoveryBanner
    features_changed: SignalInstance
    leave_requested: SignalInstance
    state: SessionState
    session: TaskSession | None
    runner: Runner
    connection: Connection | None
    agent: AgentRow | None
    guild_name: str

    def set_mode_edit(self, edit: bool) -> None: ...

    def save(self) -> None: ...

    def discard(self, undoable: bool = True) -> None: ...

    def open_picker(self, kind: Literal["note", "collection"]) -> None: ...

    def open_local_history(self) -> None: ...

    def on_text_restored(self, text: str) -> None: ...

    def on_text_changed(self) -> None: ...


class TaskCommands:
    """Connects the window's commands, the banners' buttons and the version list to the
    tab; restore, keep mine, use theirs, retry and draft recovery go to its session."""

    def __init__(self, tab: TaskParts) -> None:
        self.tab = tab
        t = tab  # every line below wires one of the tab's parts
        a = t.commands
        a.preview.triggered.connect(lambda: t.set_mode_edit(False))
        a.edit.triggered.connect(lambda: t.set_mode_edit(True))
        a.save.triggered.connect(lambda: t.save())
        a.discard.triggered.connect(lambda: t.discard(undoable=True))
        a.insert_note.triggered.connect(lambda: t.open_picker("note"))
        a.insert_table.triggered.connect(lambda: t.open_picker("collection"))
        a.find.triggered.connect(t.work_area.show_find)
        self.move_to_note = MoveToNoteFlow(
            t.runner, t.editor, lambda: t.agent, lambda: t.guild_name, lambda: t.connection,
            t.messages.info,
        )  # fmt: skip
        a.move_to_note.triggered.connect(self.move_to_note.start)
        self.open_note = OpenNoteFlow(t.runner, t.editor, lambda: t.agent, lambda: t.connection)
        a.open_note.triggered.connect(self.open_note.start)
        a.local_history.triggered.connect(t.open_local_history)
        a.versions.toggled.connect(t.work_area.show_versions)
        t.versions.compare_requested.connect(t.version_flow.compare)
        t.versions.restore_requested.connect(self.on_restore_requested)
        t.versions.take_change_requested.connect(
            lambda v, n: t.version_flow.take_change(v, n, t.editor.text, t.on_text_restored)
        )
        t.conflict_banner.merge_button.clicked.connect(t.merge_flow.merge)
        t.conflict_banner.compare_button.clicked.connect(self.on_compare_conflict)
        t.conflict_banner.keep_mine_button.clicked.connect(self.on_keep_mine)
        t.conflict_banner.use_theirs_button.clicked.connect(self.on_use_theirs)
        t.conflict_flow.keep_mine_requested.connect(self.on_keep_mine)
        t.conflict_flow.use_theirs_requested.connect(self.on_use_theirs)
        t.conflict_flow.merge_requested.connect(t.merge_flow.merge)
        t.editor.textChanged.connect(t.on_text_changed)
        t.editor.find_requested.connect(t.work_area.show_find)
        t.editor.replace_requested.connect(t.work_area.find_bar.show_replace)
        t.preview.edit_requested.connect(lambda: t.set_mode_edit(True))
        t.preview.pane.edit_requested_at.connect(partial(place_cursor, t.editor))
        t.preview.link_blocked.connect(t.messages.info)
        t.preview.external_link_requested.connect(t.links.on_external_link)
        t.preview.embed_clicked.connect(t.links.on_embed_clicked)
        t.unreachable_banner.embed_located.connect(self.on_unreachable_chosen)  # to its line
        t.live_preview.features_changed.connect(t.features_changed)
        t.live_preview.previewed.connect(t.unreachable.show)
        t.offline_banner.retry_button.clicked.connect(self._retry)
        t.draft_banner.recover_button.clicked.connect(self._recover_draft)
        t.draft_banner.discard_button.clicked.connect(self._dismiss_draft)
        self.draft_compare = DraftCompare(
            t.runner, t.work_area, t.draft_banner.recover_button, t.draft_banner.discard_button
        )
        t.draft_banner.compare_button.clicked.connect(self._compare_draft)

    def on_restore_requested(self, version: int) -> None:
        """Restore asks first: unsaved edits (Save/Discard/Cancel), then what changes."""
        self.tab.leave_requested.emit(f"restore v{version}", lambda: self._confirm_restore(version))

    def _confirm_restore(self, version: int) -> None:
        live = self.tab.state.live
        if self.tab.session is not None and live is not None:
            self.tab.version_flow.confirm_restore(version, live, self.tab.session.restore)

    def on_unreachable_chosen(self, broken: BrokenEmbed) -> None:
        """A banner entry goes to the embed's line in the editor, as References does: the
        embed itself when the Task holds it, else the Task's embed of the note holding it
        (hop 2 and beyond). Neither in the text (an edit moved it): the note, as before."""
        t = self.tab
        text = t.editor.toPlainText()
        for target in (broken.path, broken.in_path):
            at = text.find(f"![[{target}") if target else -1
            if at >= 0:
                t.set_mode_edit(True)
                cursor = t.editor.textCursor()
                cursor.setPosition(at)
                t.editor.setTextCursor(cursor)
                t.editor.centerCursor()
                t.editor.setFocus()
                return
        t.links.on_embed_clicked(broken.path)

    def on_compare_conflict(self) -> None:
        if self.tab.state.conflict is not None:
            self.tab.conflict_flow.compare(self.tab.state.conflict, self.tab.editor.text())

    def on_keep_mine(self) -> None:
        if self.tab.session is not None:
            self.tab.conflict_flow.keep_mine(
                self.tab.state, self.tab.editor.text(), self.tab.session.keep_mine
            )

    def on_use_theirs(self) -> None:
        conflict = self.tab.state.conflict
        if self.tab.session is not None and conflict is not None:
            self.tab.conflict_flow.confirm_use_theirs(conflict, self.tab.session.use_theirs)

    def _retry(self) -> None:
        if self.tab.session is not None:
            self.tab.session.retry_now()

    def _compare_draft(self) -> None:
        draft, live = self.tab.state.draft, self.tab.state.live
        if draft is not None:
            title = f"v{live.version} (live)" if live is not None else "The live Task"
            self.draft_compare.show(title, live.content if live is not None else "", draft.text)

    def _recover_draft(self) -> None:
        if self.tab.session is not None:
            self.tab.session.recover_draft()
            self.tab.set_mode_edit(True)

    def _dismiss_draft(self) -> None:
        if self.tab.session is not None:
            self.tab.session.dismiss_draft()
