"""The main window: the sidebar, the Task tab, menus and messages, wired together.

Composition and wiring only. The editor area is `widgets.task.task_tab`, the commands are
`widgets.window.actions`, save and conflict rules live in `app.desk.session`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QPaintEvent
from PySide6.QtWidgets import QMainWindow, QSplitter, QToolBar, QWidget

from app.connect.settings_owner import settings_owner
from app.desk.failures import failure_text
from app.desk.runner import Runner
from widgets.window.actions import WindowActions
from widgets.window.agent_list_model import AgentListModel
from widgets.window.beside_task import BesideTask
from widgets.window.embed_marks import EmbedMarks
from widgets.window.leave_guard import LeaveGuard
from widgets.window.live_marks import LiveMarks
from widgets.window.look_menu import LookMenu
from widgets.window.messages import Messages
from widgets.window.recent_servers import RecentServers
from widgets.window.region_cycle import Region, RegionCycle, first_focusable
from widgets.window.server_notices import (
    ServerFeaturesLabel,
    announce_connection,
    tell_token_note,
)
from widgets.window.sidebar import Sidebar
from widgets.window.sidebar_jump import SidebarJump
from widgets.window.start_up import StartUp
from widgets.window.status_line import StatusLine
from widgets.window.unsaved_marks import APP_NAME, UnsavedMarks
from widgets.window.window_place import keep_place, restore_place
from widgets.window.window_size import size_to_screen

if TYPE_CHECKING:  # imported on first use: the editor stack is not needed for the first paint
    from app.connect.connection import Connection
    from app.connect.credentials import TokenStore
    from app.connect.embedded import EmbeddedServer
    from app.core.models import AgentEmbedStatus, AgentRow, Guild, Me
    from widgets.dialogs.confirm import ConfirmLeaveDialog
    from widgets.dialogs.connect import ConnectDialog
    from widgets.dialogs.connect_request import ConnectRequest
    from widgets.fleet.fleet_windows import FleetWindows
    from widgets.proposals.proposals_hub import ProposalsHub
    from widgets.task.task_tab import TaskTab
    from widgets.window.tab_builder import TabBuilder

log = logging.getLogger(__name__)

FOLLOW_ON_ACTIVATION_MS = 5_000
"""The window coming forward asks the server again, at most this often."""


class MainWindow(QMainWindow):
    """Taskdesk's window. ``start()`` connects (off the GUI thread) after the first paint.

    ``connected`` fires once agents are listed; ``agent_opened(agent_id)`` once a Task is
    on screen. Start-up and signing in are ``start_up``'s. Dialogs it opens are kept
    (``leave_dialog``, ``connect_dialog``) so tests can press their buttons.
    """

    connected = Signal()
    agent_opened = Signal(str)
    notes_listed = Signal()  # the notes and collections to insert are in (once per server)
    first_painted = Signal()  # once, in the event-loop turn after the window's first paint

    def __init__(
        self,
        *,
        runner: Runner | None = None,
        data_dir: Path | None = None,
    ) -> None:
        super().__init__()
        self.setObjectName("MainWindow")
        self.setWindowTitle(APP_NAME)
        size_to_screen(self)  # a larger font must not push the window off the screen
        self.log_path: str | None = None  # the log file's once it opens ("": it can't; launcher)
        self.runner = runner or Runner(parent=self)
        self.connection: Connection | None = None
        self._closing_confirmed = False
        self._shut_down = False
        self._painted = False
        self._guilds: list[Guild] = []

        self.actions_ = WindowActions(self)
        self.actions_.build_menus(self.menuBar())
        self.look_menu = LookMenu(self.actions_.view_menu.addMenu("Loo&k"), self.runner)
        toolbar = QToolBar("Task tools", self)
        toolbar.setObjectName("taskToolbar")
        toolbar.setMovable(False)
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.actions_.build_toolbar(toolbar)
        self.addToolBar(toolbar)
        self.messages = Messages(self, self.statusBar())
        self.runner.failed.connect(self.messages.show)  # work with no failure handler of its own
        self.features_label = ServerFeaturesLabel()
        self.statusBar().addPermanentWidget(self.features_label)
        self.status_line = StatusLine(self.statusBar())

        self.agent_model = AgentListModel()
        self.unsaved_marks = UnsavedMarks(self, self.agent_model)
        self.embed_marks = EmbedMarks(
            self.runner, self._on_embed_status, self._on_embed_status_failed
        )
        self.sidebar = Sidebar(self.agent_model)
        settings_owner().set_writer(self._write_settings)  # the file: on the disk lane only
        self._status_seen: Connection | None = None  # the server whose embed status is in
        self._follow_pause = QTimer(self)  # activations closer than this ask the server once
        self._follow_pause.setSingleShot(True)
        self._follow_pause.setInterval(FOLLOW_ON_ACTIVATION_MS)
        self.live_marks = LiveMarks(  # live saves and presence (app.desk.live_feed)
            runner=self.runner,
            messages=self.messages,
            agent_model=self.agent_model,
            header=lambda: self._task_tab.header if self._task_tab is not None else None,
            session=lambda: self._task_tab.session if self._task_tab is not None else None,
            parent=self,
        )
        self._task_tab: TaskTab | None = None
        self.leave_guard = LeaveGuard(self, lambda: self._task_tab)
        self._tab_builder: TabBuilder | None = None  # the tab, while it is being built
        self._waiting_connection: Connection | None = None  # for it, to open its agent
        self._placeholder = QWidget()  # the Task tab's place until it is built
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("mainSplitter")
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.sidebar)
        self.splitter.addWidget(self._placeholder)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([240, 1040])
        self.setCentralWidget(self.splitter)
        self.beside_task = BesideTask(self.splitter)  # the Fleet opens as a tab beside the Task
        restore_place(self, self.splitter)

        self.start_up = StartUp(
            self.runner,
            self,
            self.messages,
            self.sidebar,
            lambda: self.connection.store if self.connection is not None else None,
            data_dir,
        )
        self.first_painted.connect(self.start_up.on_painted)
        self.start_up.starting.connect(self._prepare_task_tab)
        self.start_up.token_needed.connect(self.on_connect_requested)
        self.start_up.connected.connect(self._on_connected)

        SidebarJump(
            self.actions_.jump_to_agents,
            self.sidebar,
            self.sidebar.list_view,
            lambda: self._task_tab.work_area.focus_target() if self._task_tab else None,
        )
        RegionCycle(self.actions_.next_region, self.actions_.previous_region, self._regions(), self)
        self.sidebar.agent_chosen.connect(self.on_agent_chosen)
        self.sidebar.agent_id_entered.connect(self.on_agent_id_entered)
        self.actions_.connect_server.triggered.connect(self.on_connect_requested)
        self.actions_.open_local.triggered.connect(
            lambda: self.ask_before_leaving("open the local workspace", self.start_up.open_local)
        )
        self.recent_servers = RecentServers(
            self.actions_.recent_menu,
            self.runner,
            lambda url: self.ask_before_leaving(
                "connect to another server", lambda: self.start_up.start(url)
            ),
        )
        self.connected.connect(self.recent_servers.refresh)
        self.actions_.quit.triggered.connect(self.close)
        self._proposals: ProposalsHub | None = None  # made on first use (proposals_hub)
        # A colleague's save anywhere in the org: the marks follow at once, not at the next
        # poll; a proposal opened or decided elsewhere: the queue and the sidebar's counts.
        self.live_marks.org_changed.connect(self.follow_server_changes)
        self.live_marks.proposal_changed.connect(self._on_proposal_changed)
        self.actions_.proposals.triggered.connect(lambda: self.proposals.open_queue())
        self.actions_.propose.triggered.connect(lambda: self.proposals.propose())
        self._line_to_show: tuple[str, int] | None = None  # a search hit's agent and line
        self._fleet_windows: FleetWindows | None = None
        self.actions_.fleet.triggered.connect(lambda: self.fleet_windows.open_fleet())
        self.actions_.search_every_task.triggered.connect(lambda: self.fleet_windows.open_search())
        self.actions_.audit.triggered.connect(lambda: self.fleet_windows.open_audit())
        self.actions_.move_note.triggered.connect(lambda: self.fleet_windows.open_move_note())
        for action in self.actions_.task_actions():
            action.setEnabled(False)
        self.statusBar().showMessage("Starting…")

    def _regions(self) -> list[Region]:
        """The parts Ctrl+Tab moves between, in the order they stand on screen."""

        def banners() -> tuple[QWidget, ...]:
            return self._task_tab.banners.every_banner() if self._task_tab else ()

        def work() -> tuple[QWidget, ...]:
            return (self._task_tab.work_area,) if self._task_tab else ()

        def panel() -> tuple[QWidget, ...]:
            found = self._task_tab.side_panel if self._task_tab else None
            return (found,) if found is not None else ()

        def panel_target() -> QWidget | None:
            found = self._task_tab.side_panel if self._task_tab else None
            return found.focus_target() if found is not None and found.isVisible() else None

        return [
            Region("agents", lambda: (self.sidebar,), lambda: self.sidebar.list_view),
            Region("banner", banners, lambda: first_focusable(banners())),
            Region(
                "task",
                work,
                lambda: self._task_tab.work_area.focus_target() if self._task_tab else None,
            ),
            Region("side panel", panel, panel_target),
        ]

    @property
    def task_tab(self) -> TaskTab:
        """The editor area, built on first use: after the first paint, not before it."""
        if self._task_tab is None:
            builder = self._tab_builder
            self._place_tab(builder.finish() if builder else self._new_tab(staged=False))
        assert self._task_tab is not None
        return self._task_tab

    def _new_tab(self, *, staged: bool) -> TaskTab:
        from widgets.task.task_tab import TaskTab

        return TaskTab(self.runner, self.messages, self.actions_, staged=staged)

    def _place_tab(self, tab: TaskTab) -> None:
        self.messages.set_message_bar(tab.message_bar)
        tab.agent_shown.connect(self.on_agent_shown)
        tab.leave_requested.connect(self.ask_before_leaving)
        tab.task_saved.connect(self.on_task_saved)
        tab.features_changed.connect(self.show_server_features)
        tab.unsaved_changed.connect(self.unsaved_marks.on_unsaved)
        tab.unsaved_changed.connect(self.live_marks.on_unsaved)
        tab.notes_listed.connect(self.notes_listed)
        tab.server_polled.connect(self.follow_server_changes)
        tab.links.agent_requested.connect(self.on_agent_chosen)  # from a note's used-by
        self.status_line.follow_editor(tab.editor)
        self.beside_task.put_task(tab)
        self._placeholder.deleteLater()
        self._task_tab = tab

    def _tab_coming(self) -> bool:
        """The tab's modules are loading, or it is being built a part at a time."""
        return self._task_tab is None and self._tab_builder is not None

    def _prepare_task_tab(self) -> None:
        """While the server starts, the tab is built off the GUI thread's back (TabBuilder)."""
        if self._task_tab is None and self._tab_builder is None:
            from widgets.window.tab_builder import TabBuilder

            self._tab_builder = TabBuilder(
                self.runner, lambda: self._new_tab(staged=True), self._show_built_tab, self
            )
            self._tab_builder.start()

    def _show_built_tab(self, tab: TaskTab) -> None:
        if self._task_tab is None:
            self._place_tab(tab)
        QTimer.singleShot(1, self._open_waiting)  # the next turn: the tab's first layout first

    def _open_waiting(self) -> None:
        waiting, self._waiting_connection = self._waiting_connection, None
        if waiting is not None and waiting is self.connection:
            self._open_in_tab(waiting)

    # ------------------------------------------------------------------ start-up

    @property
    def tokens(self) -> TokenStore | None:
        """The session's token store, once start-up has opened it."""
        return self.start_up.tokens

    @property
    def embedded(self) -> EmbeddedServer | None:
        """The local workspace's server, while the window serves it."""
        return self.start_up.embedded

    @property
    def connect_dialog(self) -> ConnectDialog | None:
        return self.start_up.connect_dialog

    def start_after_first_paint(self, server_url: str | None) -> None:
        """``start`` once the window is on screen, so nothing delays the first paint."""
        self.start_up.start_after_first_paint(server_url)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            QTimer.singleShot(0, self.first_painted.emit)

    def start(self, server_url: str | None = None) -> None:
        """Connect to ``server_url``, else the remembered server, else the embedded default."""
        self.start_up.start(server_url)

    def connect_to(self, request: ConnectRequest, *, local: bool = False) -> None:
        """Sign in to a server (off the GUI thread); on success list its agents."""
        self.start_up.connect_to(request, local=local)

    def _on_connected(self, connection: Connection) -> None:
        if self.connection is not None and self.connection is not connection:
            self.connection.close()
        self.connection = connection
        me: Me = connection.me
        self._guilds = list(connection.guilds)
        self.agent_model.set_agents(connection.agents, self._guilds)
        lists_agents = connection.features.agent_list
        self.sidebar.offer_open_by_id(not lists_agents)
        self.sidebar.set_empty_text(
            "This server has no agents yet."
            if lists_agents
            else "This server doesn't list its agents. Use “Open agent by id…” to open one."
        )
        announce_connection(self.messages, connection)
        if connection.offline_as_of is None:
            self.live_marks.follow(connection)
        self.show_server_features()
        self.status_line.show_connection(
            connection.url,
            local=connection.local,
            me=me,
            features=connection.features,
            offline=connection.offline_as_of is not None,
        )
        if self._tab_coming():  # the sidebar is filled; the Task follows the tab
            self._waiting_connection = connection
        else:
            self._open_in_tab(connection)

    @property
    def proposals(self) -> ProposalsHub:
        """Proposals: the queue, reviews, proposing (built when first needed)."""
        if self._proposals is None:
            from widgets.proposals.proposals_hub import ProposalsHub

            hub = ProposalsHub(self, self.runner, self._current_task, self._agent_name)
            hub.counts_changed.connect(self.agent_model.set_open_proposals)
            hub.said.connect(self.messages.info)
            hub.available_changed.connect(
                lambda on: self.task_tab.read_only.set_proposals_available(on)
            )
            hub.task_published.connect(self._on_proposal_published)
            self._proposals = hub
        return self._proposals

    def _current_task(self) -> tuple[AgentRow, str, int] | None:
        tab = self._task_tab
        if tab is None or tab.agent is None or tab.session is None:
            return None
        version = tab.session.state().base_version
        return None if version is None else (tab.agent, tab.editor.text(), version)

    def _agent_name(self, agent_id: str) -> str:
        agent = self.agent_model.agent(agent_id)
        return agent.name if agent is not None else agent_id

    def _on_proposal_published(self, agent_id: str) -> None:
        tab = self._task_tab
        if tab is not None and tab.session is not None and tab.session.agent_id == agent_id:
            tab.session.check_remote()  # the new version, read now rather than at the next poll

    def _open_in_tab(self, connection: Connection) -> None:
        self.task_tab.set_connection(connection)
        self.proposals.set_connection(connection)
        self.connected.emit()
        first = connection.initial_agent_id or next(iter(self.agent_model.agent_ids()), None)
        if first is not None:
            self.open_agent(first)
        self.refresh_embed_status()  # after the Task's request: it is what the operator waits for
        if self.task_tab.session is not None:
            self.task_tab.session.recoverable_drafts()  # offered once the agents are listed

    def _write_settings(self, write: Callable[[], None]) -> None:
        if self.runner.closed:
            write()  # after the window's last job: nothing else writes the file now
        else:
            self.runner.submit(write, on_done=lambda _: None, lane="disk")

    def _on_proposal_changed(self, _change: object) -> None:
        hub = self._proposals
        if hub is not None and hub.queue is not None:
            hub.queue.refresh()

    def follow_server_changes(self) -> None:
        """Something may have changed on the server: ask again what the three marks (sidebar,
        header, banner) and References depend on. Called on the session's poll, when the
        window comes forward, and by a live-event subscriber (at once on a change). Cheap:
        the embed status is asked with its ETag (304 when unchanged); the open Task's notes
        are asked again only when its embed status changed."""
        if self.connection is not None and not self._shut_down:
            self.refresh_embed_status()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        # Back from another window (a colleague's change, a terminal): follow the server, at
        # most once per FOLLOW_ON_ACTIVATION_MS however often focus comes and goes.
        activated = event.type() is QEvent.Type.ActivationChange and self.isActiveWindow()
        if activated and not self._follow_pause.isActive():
            self._follow_pause.start()
            self.follow_server_changes()

    def refresh_embed_status(self, guild_ids: list[str] | None = None) -> None:
        """Mark agents whose Task embeds files they can't reach (``guild_ids``, else all)."""
        if self.connection is not None:
            self.embed_marks.refresh(self.connection, guild_ids)

    def show_server_features(self) -> None:
        """The status line naming what this server lacks (hidden when it lacks nothing)."""
        features = self.connection.features if self.connection is not None else None
        self.features_label.show_features(features)

    def _on_embed_status_failed(self, exc: BaseException) -> None:
        log.info("embed status unavailable: %s", exc)
        self.messages.warning(
            f"Taskdesk could not check which embeds reach their files: {failure_text(exc)} "
            "The marks of unreachable embeds may be out of date."
        )

    def _on_embed_status(self, statuses: list[AgentEmbedStatus]) -> None:
        tab = self.task_tab
        open_id = tab.agent.id if tab.agent is not None else None
        before = self.agent_model.broken_embeds(open_id) if open_id is not None else ()
        self.agent_model.set_broken_embeds({s.id: s.broken_embeds for s in statuses})
        self.agent_model.set_embedded_bytes({s.id: s.embedded_bytes for s in statuses})
        after = self.agent_model.broken_embeds(open_id) if open_id is not None else ()
        changed = self._status_seen is self.connection and before != after
        self._status_seen = self.connection  # the first answer is news to no one
        tab.set_sidebar_broken(self.agent_model.broken_embeds, changed=changed)

    # ------------------------------------------------------------------ agents

    def on_agent_chosen(self, agent_id: str) -> None:
        self.ask_before_leaving("switch to another agent", lambda: self.open_agent(agent_id))

    def on_agent_id_entered(self, agent_id: str, guild_id: str = "") -> None:
        """An id typed in "Open agent by id…": read its Task off the GUI thread, then open it."""
        from app.connect.connection import look_up_agent

        connection = self.connection
        if connection is None:
            return
        known = self.agent_model.agent(agent_id)
        if known is not None and (not guild_id or known.guild_id == guild_id):
            self.on_agent_chosen(agent_id)
            return

        def found(agent: AgentRow) -> None:
            if self.connection is not connection:
                return  # another server was opened meanwhile
            connection.add_agent(agent)
            self.agent_model.add_agent(agent)
            self.open_agent(agent.id)
            if agent.guild_id:
                self.show_server_features()
                self.refresh_embed_status()

        self.ask_before_leaving(
            "open another agent",
            lambda: self.runner.submit(
                lambda: look_up_agent(connection, agent_id, guild_id),
                on_done=found,
                on_error=lambda exc: self.messages.error(failure_text(exc)),
            ),
        )

    def open_agent(self, agent_id: str) -> None:
        agent = self.agent_model.agent(agent_id)
        if agent is None:
            return
        self.sidebar.select_agent(agent_id)
        self.unsaved_marks.show_agent(agent_id, agent.name)  # now, even if its Task fails to load
        self.task_tab.open_agent(agent, self.agent_model.guild_name(agent.guild_id))
        for action in self.actions_.task_actions():
            action.setEnabled(True)

    @property
    def fleet_windows(self) -> FleetWindows:
        """The fleet's windows, loaded on first use: nothing of them before the first paint."""
        if self._fleet_windows is None:
            from widgets.fleet.fleet_windows import FleetWindows

            self._fleet_windows = FleetWindows(
                self,
                self.runner,
                lambda: self.connection,
                self.open_agent_at,
                self.messages.info,
                self.beside_task,
            )
        return self._fleet_windows

    def open_agent_at(self, agent_id: str, line: int) -> None:
        """Open the agent (a fleet row, a search hit) with the Task's cursor at ``line``."""
        if self.agent_model.agent(agent_id) is None:
            self.messages.info(f"No agent {agent_id} on this server any more.")
            return
        self._line_to_show = (agent_id, line)
        self.beside_task.show_task()
        tab = self._task_tab
        if tab is not None and tab.agent is not None and tab.agent.id == agent_id:
            self._show_line(agent_id)
            return
        self.ask_before_leaving("open another agent", lambda: self.open_agent(agent_id))

    def _show_line(self, agent_id: str) -> None:
        wanted, self._line_to_show = self._line_to_show, None
        if wanted is None or wanted[0] != agent_id or self._task_tab is None:
            return
        if wanted[1] > 1:
            self._task_tab.set_mode_edit(True)
            self._task_tab.editor.go_to_line(wanted[1])

    def on_agent_shown(self, agent_id: str) -> None:
        self._show_line(agent_id)
        agent = self.agent_model.agent(agent_id)
        self.unsaved_marks.show_agent(agent_id if agent else None, agent.name if agent else "")
        self.agent_opened.emit(agent_id)
        if self.connection is not None:
            tell_token_note(self.messages, self.connection)
        self.live_marks.show_agent(agent_id if agent else None)
        if self.connection is not None and not self._shut_down:
            self.start_up.remember_agent(self.connection, agent_id, agent)

    def on_task_saved(self, agent: AgentRow) -> None:
        # A save can change which embeds reach their files: ask again about its guild.
        self.refresh_embed_status([agent.guild_id] if agent.guild_id else None)

    # ------------------------------------------------------------------ connecting

    def on_connect_requested(self, url: str = "") -> None:
        """Ask for a server and token (the Connect dialog), after any unsaved edits."""
        current = url or (
            self.connection.url if self.connection and not self.connection.local else ""
        )
        self.ask_before_leaving("connect to another server", lambda: self.start_up.ask(current))

    # ------------------------------------------------------------------ leaving

    def ask_before_leaving(self, action: str, proceed: Callable[[], None]) -> None:
        """Run ``proceed`` now, or after Save/Discard when the Task has unsaved edits."""
        self.leave_guard.ask(action, proceed)

    @property
    def leave_dialog(self) -> ConfirmLeaveDialog | None:
        """The unsaved-edits question while it is open (tests press its buttons)."""
        return self.leave_guard.dialog

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._closing_confirmed or self._task_tab is None or not self._task_tab.has_unsaved():
            if self._task_tab is not None and not self._shut_down:
                self._task_tab.keep_draft()
            keep_place(self, self.splitter)
            event.accept()
            return
        event.ignore()

        def close_now() -> None:
            self._closing_confirmed = True
            self.close()

        self.ask_before_leaving("close Taskdesk", close_now)

    def keep_draft(self) -> None:
        """Write the unsaved text as a draft now (it is offered back on the next start)."""
        if self._task_tab is not None and not self._shut_down:
            self._task_tab.keep_draft()

    def quit_keeping_draft(self) -> None:
        """Close without asking: the session is ending and nobody is there to answer."""
        from PySide6.QtWidgets import QDialog  # its enums: not needed before the first paint

        self._closing_confirmed = True
        for dialog in self.findChildren(QDialog):
            dialog.reject()
        self.close()

    def secrets(self) -> list[str]:
        """Tokens in use, so logs can scrub them."""
        embedded = self.start_up.embedded
        found = [embedded.token] if embedded is not None else []
        if self.connection is not None:
            found.append(self.connection.token)
        return found

    def shutdown(self) -> None:
        """After the event loop: let queued writes land, then stop the local server."""
        if self._shut_down:
            return
        self._shut_down = True
        self.start_up.cancel()  # closed before it started: no server left behind
        self.live_marks.stop()
        if self._task_tab is not None:
            self._task_tab.shutdown()
        if self.connection is not None:
            # The draft is on disk (or queued on the disk lane, which shutdown waits for):
            # no request in flight is worth keeping the process for (a slow server kept it
            # up to a minute).
            self.connection.client.cancel_requests()
        self.runner.shutdown(5_000)
        if self.connection is not None:
            self.connection.close()
        self.start_up.stop_embedded()
