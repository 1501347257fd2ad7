"""The open Task's embeds that can't reach their files: the header's mark and the banner."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol

from app.core.edited_reach import broken_to_show
from app.core.embed_verdicts import EmbedVerdict, server_verdicts
from app.core.expander import task_display_path
from app.core.models import BrokenEmbed
from app.core.viewer_reach import hidden_from_viewer
from app.desk.open_task import OpenTask

if TYPE_CHECKING:
    from widgets.task.live_preview import LivePreview
    from widgets.task.task_banners import TaskBanners
    from widgets.window.agent_header import AgentHeader


class MarkedTask(OpenTask, Protocol):
    """Where the marks go: the open Task's header and banners, and its preview (which says
    what the edited text's own embeds reach). The Task tab is one."""

    header: AgentHeader
    banners: TaskBanners
    live_preview: LivePreview


class UnreachableEmbeds:
    """What the tab says about unreachable embeds. The server's embed status (``lookup``, per
    agent: the sidebar's) stands for the live Task; while the editor holds other text, that
    text's own preview says which of its embeds can't reach their files."""

    def __init__(self, tab: MarkedTask) -> None:
        self._tab = tab
        self.lookup: Callable[[str], tuple[BrokenEmbed, ...]] = lambda _agent_id: ()
        self.status_known = False  # the server's embed status has answered on this server

    def saved(self) -> tuple[BrokenEmbed, ...]:
        """The server's list for the open agent's live Task."""
        agent = self._tab.agent
        return self.lookup(agent.id) if agent is not None else ()

    def hidden(self, marker_paths: Iterable[str]) -> frozenset[str]:
        """Of the Task embeds the viewer's preview made markers, the ones the agent reads."""
        connection = self._tab.connection
        return hidden_from_viewer(
            marker_paths,
            self.saved(),
            viewer_reads_all=connection is None or connection.me.type == "operator",
            status_known=self.status_known,
        )

    def agent_cannot_reach(self) -> frozenset[str] | None:
        """The Task's own embeds the agent can't reach, for a viewer who may not read every
        note once the status is in (None otherwise: every marker is the viewer's and agent's)."""
        connection = self._tab.connection
        if connection is None or connection.me.type == "operator" or not self.status_known:
            return None
        return frozenset(b.path for b in self.saved() if b.hop == 1)

    def saved_paths(self) -> set[str]:
        return {b.path for b in self.saved()}

    def server_verdicts(self) -> dict[str, EmbedVerdict]:
        """The editor's marks from the server's list (a server that shares no note text)."""
        return server_verdicts(self.saved())

    def show(self) -> None:
        """The server's list for the live Task; the edited text's own while it differs."""
        tab = self._tab
        live = tab.state.live.content if tab.state.live is not None else None
        edited, unknown = tab.live_preview.broken_in_edits(live)
        shown = broken_to_show(self.saved(), edited, unknown)
        tab.header.set_unreachable(bool(shown.broken), [b.path for b in shown.broken])
        task_path = None
        if tab.agent is not None and tab.connection is not None:
            task_path = task_display_path(tab.connection.me.org_id, tab.agent.id)
        tab.banners.show_broken(shown.broken, task_path, shown.unsaved)
