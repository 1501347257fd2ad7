"""What the window shows of the live feed: a colleague's save of the open Task at once,
"Bo is editing this Task (since 2 min)" in the header, and the sidebar's mark on agents
someone else is editing. Wiring only: the feed (``app.desk.live_feed``) decides.

A colleague's save of the open Task asks its session for the same conditional GET as the
15 s poll: with no edits the new version loads, with edits the conflict banner offers
Merge / Compare at once ("Bo saved v8 while you were editing…"). Nothing is ever blocked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, QTimer, Signal

from app.desk.runner import Runner
from widgets.window.agent_list_model import AgentListModel

if TYPE_CHECKING:  # the feed loads with the first connection, not before the first paint
    from app.connect.connection import Connection
    from app.desk.live_feed import LiveFeed, LiveMode
    from app.desk.session import TaskSession
    from widgets.window.agent_header import AgentHeader

NO_LIVE_EVENTS = (
    "This server sends no live updates: a colleague's save shows here within 15 seconds, "
    "and who else has a Task open is not shown."
)
SINCE_REFRESH_MS = 30_000  # "since 2 min" moves on by itself


class Notices(Protocol):
    def info(self, text: str) -> object: ...


class LiveMarks(QObject):
    """Follows one server's live feed at a time (``follow``), for the agent on screen.

    ``org_changed`` fires after any Task or note of the org is saved (by anyone): the window
    follows the server's changes then (the embed-status marks). ``proposal_changed`` fires
    when a proposal is opened, revised or decided: the proposals' queue is listed again."""

    org_changed = Signal()
    proposal_changed = Signal(object)  # {id, agent_id, status}

    def __init__(
        self,
        *,
        runner: Runner,
        messages: Notices,
        agent_model: AgentListModel,
        header: Callable[[], AgentHeader | None],
        session: Callable[[], TaskSession | None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._runner = runner
        self._messages = messages
        self._model = agent_model
        self._header = header
        self._session = session
        self.feed: LiveFeed | None = None
        self._shown: str | None = None
        self._unsaved = False
        self._since = QTimer(self)
        self._since.setInterval(SINCE_REFRESH_MS)
        self._since.timeout.connect(self._show_presence)

    def follow(self, connection: Connection) -> None:
        """Live updates from this server (the last one's end)."""
        from app.desk.live_feed import LiveFeed

        self.stop()
        feed = LiveFeed.for_connection(connection, self._runner, self)
        feed.task_saved.connect(self._on_task_saved)
        feed.presence_changed.connect(self._on_presence)
        feed.mode_changed.connect(self._on_mode)
        feed.org_changed.connect(self.org_changed)
        feed.proposal_changed.connect(self.proposal_changed)
        self.feed = feed
        feed.start()
        if self._shown is not None:
            feed.show_task(self._shown, editing=self._unsaved)

    def stop(self) -> None:
        feed, self.feed = self.feed, None
        if feed is not None:
            feed.stop()
            feed.deleteLater()
        self._model.set_edited_by_others(set())
        self._show_presence()

    def show_agent(self, agent_id: str | None) -> None:
        """The agent whose Task is on screen now."""
        if agent_id != self._shown:
            self._unsaved = False
        self._shown = agent_id
        if self.feed is not None:
            self.feed.show_task(agent_id, editing=self._unsaved)
        self._show_presence()

    def on_unsaved(self, agent_id: str, unsaved: bool) -> None:
        """The open Task has edits (it is being edited) or none (only looked at)."""
        if agent_id != self._shown:
            return
        self._unsaved = unsaved
        if self.feed is not None:
            self.feed.show_task(agent_id, editing=unsaved)

    # ------------------------------------------------------------------ the feed's news

    def _on_task_saved(self, agent_id: str, version: int, by_name: str) -> None:
        session = self._session()
        if session is None or session.agent_id != agent_id:
            return
        live = session.state().live
        if live is None or version > live.version:
            session.check_remote()  # the poll's own check, now

    def _on_presence(self, agent_id: str) -> None:
        if self.feed is not None:
            self._model.set_edited_by_others(self.feed.edited_by_others())
        if agent_id == self._shown:
            self._show_presence()

    def _on_mode(self, mode: LiveMode) -> None:
        from app.desk.live_feed import LiveMode

        if mode is LiveMode.UNAVAILABLE:
            self._messages.info(NO_LIVE_EVENTS)

    def _show_presence(self) -> None:
        header = self._header()
        if header is None:
            return
        from app.desk.live_feed import presence_text

        feed, agent_id = self.feed, self._shown
        colleagues = feed.colleagues(agent_id) if feed is not None and agent_id else []
        header.set_presence(presence_text(colleagues))
        if colleagues:
            self._since.start()
        else:
            self._since.stop()
