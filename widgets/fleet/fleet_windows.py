"""The fleet's windows for the main window: View › Fleet, Search every Task, View › Audit,
the change-set preview a search's replace opens, and File › Move note… (a change set too).

Each window gets controllers of its own, made its children, so no long-lived object keeps a
signal connected to a window that is gone. The main window hands in what they need: the
runner, the signed-in connection (None before one) and how to open an agent at a line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QVBoxLayout, QWidget

from app.core.change_plan import BadEditError, Edit, replace_edit
from app.core.fleet_models import HealthRow
from app.desk.change_set_flow import ChangeSetFlow
from app.desk.fleet_desk import FleetAudit, FleetHealth, FleetSearch
from app.desk.member_search import LiveTaskSearch
from app.desk.note_move import MovePlan, NoteMove
from app.desk.proposal_filing import ProposalFiling
from app.desk.runner import Runner
from app.desk.spec_fleet import (
    NO_AUDIT,
    NO_CHANGE_SETS,
    NO_MOVE,
    SpecFleetHealth,
    SpecFleetSearch,
)
from widgets.fleet.audit_dialog import AuditDialog
from widgets.fleet.change_preview import ChangePreviewDialog
from widgets.fleet.edit_selected_dialog import EditSelectedDialog
from widgets.fleet.fleet_panel import FleetPanel
from widgets.fleet.search_dialog import SearchDialog
from widgets.notes.move_note_dialog import MoveNoteDialog, MovePreviewDialog

if TYPE_CHECKING:
    from app.connect.connection import Connection

OPERATORS_ONLY = "The fleet is for operators: sign in as one to see every agent."
MOVE_OPERATORS_ONLY = "Only operators can move notes: sign in as one to move it."


class BesideTaskPlace(Protocol):
    """Where the Fleet opens: a tab beside the Task (widgets.window.beside_task)."""

    def show(self, widget: QWidget, title: str, on_close: Callable[[], None]) -> None: ...

    def remove(self, widget: QWidget) -> None: ...


class FleetView(QWidget):
    """View › Fleet: the fleet table, a tab beside the Task, loaded when it opens; on a
    spec-only server the app's own reads (``SpecFleetHealth``), with what they can't tell."""

    def __init__(
        self, health: FleetHealth | SpecFleetHealth, guilds: dict[str, str], parent: QWidget
    ) -> None:
        super().__init__(parent)
        self.setObjectName("fleetView")
        self.setWindowTitle("Fleet")
        self.health = health
        health.setParent(self)
        self.panel = FleetPanel(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.panel)
        self._guilds = guilds
        health.loaded.connect(self.on_loaded)
        health.failed.connect(self.panel.show_failure)
        if isinstance(health, SpecFleetHealth):
            health.notice.connect(self.panel.show_notice)

    def on_loaded(self, rows: list[HealthRow]) -> None:
        self.panel.show_rows(rows, self._guilds)

    def refresh(self) -> None:
        self.health.load()


class FleetWindows(QObject):
    """Opens the fleet's windows; ``say(text)`` reports what can't be done on this server."""

    def __init__(
        self,
        window: QWidget,
        runner: Runner,
        connection: Callable[[], Connection | None],
        open_at: Callable[[str, int], None],
        say: Callable[[str], None],
        beside_task: BesideTaskPlace | None = None,
    ) -> None:
        super().__init__(window)
        self._window = window
        self._runner = runner
        self._connection = connection
        self._open_at = open_at
        self._say = say
        self._beside_task = beside_task  # a tab beside the Task; else a window of its own
        self.fleet_view: FleetView | None = None
        self.search_dialog: SearchDialog | None = None
        self.audit_dialog: AuditDialog | None = None
        self.preview_dialog: ChangePreviewDialog | None = None
        self.edit_dialog: EditSelectedDialog | None = None
        self.move_dialog: MoveNoteDialog | None = None
        self.move_preview: MovePreviewDialog | None = None
        self._signed_in: Connection | None = None  # the connection the windows were made for

    def _usable(self, *, spec_only: str | None, members_too: bool = False) -> Connection | None:
        """The connection to use, or None having said why; ``members_too`` for what a member
        may do as well (search the Tasks' text, file a change as proposals). ``spec_only``:
        the sentence to say on a server with only the spec's endpoints, or None when the app
        does it there from the spec's endpoints itself (``_spec_only`` then tells)."""
        connection = self._connection()
        if connection is None:
            self._say("Connect to a server first.")
            return None
        if connection is not self._signed_in:
            self._close_all()  # they talk to the server signed in to before
            self._signed_in = connection
        if connection.me.type != "operator" and not (
            members_too and connection.me.type == "member"
        ):
            self._say(OPERATORS_ONLY)
            return None
        if spec_only is not None and self._spec_only(connection):
            self._say(spec_only)
            return None
        return connection

    @staticmethod
    def _spec_only(connection: Connection) -> bool:
        """A server without the extension endpoints: no agent list, no fleet endpoints."""
        return not connection.features.agent_list

    def open_fleet(self) -> None:
        connection = self._usable(spec_only=None)
        if connection is None:
            return
        if self.fleet_view is None:
            guilds = {g.id: g.name for g in connection.guilds}
            health: FleetHealth | SpecFleetHealth
            if self._spec_only(connection):
                known = connection  # the agents opened by id, as they are when it loads
                health = SpecFleetHealth(
                    self._runner, connection.client, lambda: list(known.agents), known.guild_ids
                )
            else:
                health = FleetHealth(self._runner, connection.client)
            view = FleetView(health, guilds, self._window)
            view.panel.agent_activated.connect(lambda agent_id: self._open_at(agent_id, 1))
            view.panel.edit_requested.connect(self.ask_edit_for)
            self.fleet_view = view
        view = self.fleet_view
        view.refresh()
        if self._beside_task is not None:
            self._beside_task.show(view, "Fleet", lambda: self._forget("fleet_view"))
        else:
            view.setWindowFlag(Qt.WindowType.Window)
            view.resize(1100, 640)
            view.show()
        view.panel.filter.setFocus()

    def open_search(self) -> None:
        connection = self._usable(spec_only=None, members_too=True)
        if connection is None:
            return
        if self.search_dialog is None:
            guilds = {g.id: g.name for g in connection.guilds}
            operator = connection.me.type == "operator"
            search: FleetSearch | SpecFleetSearch
            if self._spec_only(connection):
                known = connection
                search = SpecFleetSearch(
                    self._runner, connection.client, lambda: list(known.agents)
                )
            else:
                # A member has no server search (operators only): the app searches the Tasks.
                searcher = connection.client if operator else LiveTaskSearch(connection.client)
                search = FleetSearch(self._runner, searcher)
            dialog = SearchDialog(search, self._window, guilds)
            dialog.hit_activated.connect(self._open_at)
            dialog.replace_requested.connect(self.open_replace_preview)
            dialog.finished.connect(lambda _: self._forget("search_dialog"))
            self.search_dialog = dialog
        self.search_dialog.show()
        self.search_dialog.raise_()
        self.search_dialog.query.setFocus()

    def open_audit(self) -> None:
        connection = self._usable(spec_only=NO_AUDIT)
        if connection is None:
            return
        if self.audit_dialog is None:
            dialog = AuditDialog(FleetAudit(self._runner, connection.client), self._window)
            dialog.finished.connect(lambda _: self._forget("audit_dialog"))
            self.audit_dialog = dialog
        self.audit_dialog.on_refresh()
        self.audit_dialog.show()
        self.audit_dialog.raise_()

    def open_replace_preview(
        self, agent_ids: list[str], find: str, replacement: str, regex: bool
    ) -> None:
        connection = self._usable(spec_only=NO_CHANGE_SETS, members_too=True)
        if connection is None:
            return
        try:
            edit = replace_edit(find, replacement, regex=regex)
        except BadEditError as bad:
            self._say(str(bad))
            return
        self.open_preview(agent_ids, edit, f"Replace “{find}” with “{replacement}”"[:200])

    def ask_edit_for(self, agent_ids: list[str]) -> None:
        """Apply an edit to the selected agents: what edit, then its change set's preview."""
        asking = EditSelectedDialog(len(agent_ids), self._window)
        self.edit_dialog = asking
        asking.accepted.connect(lambda: self.open_preview(agent_ids, asking.edit(), asking.title()))
        asking.finished.connect(lambda _: self._forget("edit_dialog"))
        asking.open()

    def open_preview(self, agent_ids: list[str], edit: Edit, title: str) -> None:
        connection = self._usable(spec_only=NO_CHANGE_SETS, members_too=True)
        if connection is None:
            return
        flow = ChangeSetFlow(self._runner, connection.client, connection.me.org_id)
        filing = ProposalFiling(self._runner, connection.client)
        dialog = ChangePreviewDialog(
            flow,
            title,
            self._window,
            filing=filing,
            can_apply=connection.me.type == "operator",
        )
        dialog.finished.connect(lambda _: self._forget("preview_dialog"))
        self.preview_dialog = dialog
        dialog.show()
        flow.preview(agent_ids, edit)

    def open_move_note(self, old_path: str = "") -> None:
        """File › Move note…: the two paths, then the preview of the change set, then Move."""
        signed_in = self._connection()
        if signed_in is not None and signed_in.me.type != "operator":
            self._say(MOVE_OPERATORS_ONLY)
            return
        connection = self._usable(spec_only=NO_MOVE)
        if connection is None:
            return
        if self.move_dialog is not None:
            self.move_dialog.raise_()
            return
        client, org = connection.client, connection.me.org_id
        asking = MoveNoteDialog(NoteMove(self._runner, client, org), old_path, self._window)
        self.move_dialog = asking

        def planned(plan: MovePlan) -> None:
            flow = ChangeSetFlow(self._runner, client, org, notes_as=plan.notes_after())
            move = NoteMove(self._runner, client, org)
            preview = MovePreviewDialog(flow, move, plan, self._window)
            preview.finished.connect(lambda _: self._forget("move_preview"))
            self.move_preview = preview
            preview.show()
            flow.preview(list(plan.agent_ids), plan.edit)

        asking.move_.planned.connect(planned)
        asking.finished.connect(lambda _: self._forget("move_dialog"))
        asking.open()

    def _close_all(self) -> None:
        view = self.fleet_view
        if view is not None and self._beside_task is not None:
            self._beside_task.remove(view)
        for name in (
            "fleet_view",
            "search_dialog",
            "audit_dialog",
            "preview_dialog",
            "edit_dialog",
            "move_dialog",
            "move_preview",
        ):
            window = getattr(self, name)
            if window is not None:
                window.close()
            self._forget(name)

    def _forget(self, name: str) -> None:
        dialog: Any = getattr(self, name)
        setattr(self, name, None)
        if dialog is not None:
            dialog.deleteLater()
