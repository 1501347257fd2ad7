"""The live preview of the editor text: shown, with its embeds marked in the editor."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from app.core.embed_verdicts import EmbedVerdict, embed_verdicts
from app.core.expander import task_display_path
from app.core.limits import utf8_len
from app.core.models import AgentRow, BrokenEmbed, Reader
from app.core.user_message import MessageKey, UserMessage
from app.core.viewer_reach import task_markers
from app.desk.preview_pipeline import PreviewContext, PreviewPipeline, PreviewResult
from app.desk.runner import Runner
from app.render.preview_notes import PreviewNotes
from widgets.editor.task_editor import TaskEditor
from widgets.preview.preview_panel import PreviewPanel
from widgets.preview.size_meters import SizeMeters
from widgets.task.task_banners import TaskBanners
from widgets.window.messages import Messages

if TYPE_CHECKING:
    from app.connect.connection import Connection

SIZE_DEBOUNCE_MS = 150  # counting 256 KB of UTF-8 on every keystroke would stall typing
WAITING_FOR_TASK = "The preview appears once this agent's Task is loaded."
PREPARING = "Preparing this agent's preview…"
NO_PREVIEW = "No preview: the message above says why."


class LivePreview(QObject):
    """Feeds the editor text to a ``PreviewPipeline`` (expanded and rendered on the runner)
    and shows each result: the preview panel, the editor's embed marks, the sizes, the
    budget banner and the preview's notice. The Task's own size is counted once typing
    pauses. ``features_changed`` fires when a preview
    finds that the server doesn't share note text.

    ``not_an_edit()`` wraps re-highlighting the editor, which changes no character;
    ``server_verdicts()`` marks the embeds from the server's embed status instead, for a
    server without note text.
    """

    features_changed = Signal()
    previewed = Signal()  # a new preview is shown (its unreachable embeds may differ)
    shown = Signal(object)  # PreviewResult, once it is on screen

    def __init__(
        self,
        *,
        runner: Runner,
        messages: Messages,
        editor: TaskEditor,
        panel: PreviewPanel,
        size_meters: SizeMeters,
        banners: TaskBanners,
        not_an_edit: Callable[[], AbstractContextManager[None]],
        server_verdicts: Callable[[], dict[str, EmbedVerdict]],
        hidden: Callable[[list[str]], frozenset[str]] = lambda _paths: frozenset(),
        parent: QObject | None = None,
    ) -> None:
        """``hidden``: of the Task embeds the preview made markers, the ones the agent reads
        though the viewer may not (marked so, not as unreachable)."""
        super().__init__(parent)
        self._runner = runner
        self._messages = messages
        self._editor = editor
        self._panel = panel
        self._size_meters = size_meters
        self._banners = banners
        self._not_an_edit = not_an_edit
        self._server_verdicts = server_verdicts
        self._hidden = hidden
        self._connection: Connection | None = None
        self._notice: str | None = None
        self.pipeline: PreviewPipeline | None = None
        self.notes: PreviewNotes | None = None  # the open server's, shared with References
        self.last_preview: PreviewResult | None = None
        self._size_timer = QTimer(self)
        self._size_timer.setSingleShot(True)
        self._size_timer.setInterval(SIZE_DEBOUNCE_MS)
        self._size_timer.timeout.connect(self.count_sizes)

    def set_connection(self, connection: Connection) -> None:
        """A new server: a fresh pipeline over its notes."""
        if self.pipeline is not None:
            self.pipeline.set_context(None)
            self.pipeline.deleteLater()
        self._connection = connection
        notes = PreviewNotes(
            connection.client,
            connection.store,
            connection.server_key,
            lacks_note_text=connection.features.note_text is False,  # learnt at sign-in
        )
        self.notes = notes
        pipeline = PreviewPipeline(
            runner=self._runner, notes=notes, text_source=self._editor.text, parent=self
        )
        pipeline.ready.connect(self.on_preview)
        pipeline.glimpse.connect(self._panel.show_glimpse)
        pipeline.loading.connect(self._panel.loading_notice.on_loading)
        pipeline.idle.connect(self._panel.loading_notice.on_idle)
        pipeline.message.connect(self._on_problem)
        self.pipeline = pipeline

    def clear(self) -> None:
        """Another agent is opening: nothing is previewed until its text is in the editor."""
        self.last_preview = None
        self._panel.loading_notice.on_idle()
        self._panel.expect_preview(WAITING_FOR_TASK)
        # Nothing of the last agent's stands under this one's name meanwhile.
        self._size_timer.stop()
        self._size_meters.set_unknown()
        self._banners.hide_budget()
        if self.pipeline is not None:
            self.pipeline.set_context(None)

    def _on_problem(self, message: UserMessage) -> None:
        self._messages.show(message)
        if self.last_preview is None:  # not "preparing" any more: it failed
            self._panel.expect_preview(NO_PREVIEW)

    def show_agent(self, agent: AgentRow) -> None:
        """Preview the editor text as ``agent``'s Task, at once and after every edit."""
        connection, pipeline = self._connection, self.pipeline
        if connection is None or pipeline is None:
            return
        org = connection.me.org_id
        if self.last_preview is None:
            self._panel.expect_preview(PREPARING)
        pipeline.set_context(
            PreviewContext(org, Reader(agent.id, agent.guild_id), task_display_path(org, agent.id))
        )

    def schedule(self) -> None:
        """The text changed: preview it and count its size once typing pauses."""
        if self.pipeline is not None:
            self.pipeline.schedule()
        self._size_timer.start()

    def server_back(self) -> None:
        """The server answers again: preview at once, asking about the notes it could not
        reach, so a notice about them goes."""
        if self.notes is not None:
            self.notes.retry_unreachable()
        if self.pipeline is not None:
            self.pipeline.schedule()

    def follow_server(self) -> None:
        """The server's notes changed (its embed status said so, or a live event): preview
        again, asking about every note, so the marks and References say what a run gets now."""
        if self.notes is not None:
            self.notes.revalidate()
        if self.pipeline is not None:
            self.pipeline.schedule()

    def count_sizes(self) -> None:
        self._size_meters.set_sizes(utf8_len(self._editor.text()))

    def stop(self) -> None:
        """No more previews: late callbacks (a discard landing) must not start one."""
        self._size_timer.stop()
        if self.pipeline is not None:
            self.pipeline.set_context(None)
            self.pipeline = None

    def on_preview(self, result: PreviewResult) -> None:
        """A fresh expansion of the editor text: exactly what a run would get."""
        self.last_preview = result
        expansion = result.expansion
        self._panel.show_preview(result.html, expansion.text)
        connection = self._connection
        if result.unsupported and connection is not None and connection.learn_note_text(False):
            self.features_changed.emit()
        # Without note text the preview can't tell what reaches its file: the server's
        # embed status marks the unreachable ones, the rest stay unmarked.
        with self._not_an_edit():
            self._editor.set_verdicts(self._verdicts(result))
        hidden = not result.unsupported and bool(self._hidden(task_markers(expansion.pieces)))
        self._size_meters.set_sizes(
            utf8_len(self._editor.text()), expansion.embedded_bytes, partial=hidden
        )
        self._banners.show_budget(expansion)
        self.previewed.emit()
        if result.notice and result.notice != self._notice:
            self._messages.warning(result.notice, MessageKey.PREVIEW)
        elif not result.notice:
            self._messages.withdraw(MessageKey.PREVIEW)  # the preview is exact again
        self._notice = result.notice
        self.shown.emit(result)

    def _verdicts(self, result: PreviewResult) -> dict[str, EmbedVerdict]:
        if result.unsupported:
            return self._server_verdicts()
        verdicts = embed_verdicts(result.expansion.pieces)
        for path in self._hidden(task_markers(result.expansion.pieces)):
            verdicts[path] = "withheld"  # the agent reads it: not the red mark of a failure
        return verdicts

    def broken_in_edits(
        self, live_text: str | None
    ) -> tuple[tuple[BrokenEmbed, ...] | None, set[str]]:
        """The edited text's unreachable embeds, as the agent, and the ones it could not
        check; None first while the text is the live one or the preview can't tell."""
        result = self.last_preview
        if (
            result is None
            or result.unsupported
            or live_text is None
            or self._editor.text() == live_text
        ):
            return None, set()
        return tuple(result.expansion.broken), set(result.unknown)

    def mark_from_server(self, agent_cannot_reach: frozenset[str] | None = None) -> None:
        """The embed status changed: redraw the marks that depend on it. ``agent_cannot_reach``:
        the Task embeds the agent can't reach when the viewer may not read every note (None:
        an operator, or not known), so the preview draws the rest as the agent's reads."""
        if self.pipeline is not None and self.pipeline.agent_cannot_reach != agent_cannot_reach:
            self.pipeline.agent_cannot_reach = agent_cannot_reach
            self.pipeline.schedule()
        if self.last_preview is not None:
            with self._not_an_edit():
                self._editor.set_verdicts(self._verdicts(self.last_preview))
