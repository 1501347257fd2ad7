"""Where proposals meet the window: View › Proposals, Propose a change…, the sidebar's marks.

The window makes one hub and tells it each new connection; the hub makes the desks (app/desk)
and the windows that observe them. On a server without proposals (a spec-only one) each
command says so in one line and nothing else changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from app.core.models import AgentRow
from app.desk.proposal_queue import NOT_ON_THIS_SERVER, ProposalQueue
from app.desk.runner import Runner

if TYPE_CHECKING:  # the windows and what they drive load when first opened: the hub is made
    # as a server connects, on the way to the first Task, and they are ~20 ms of imports
    from app.connect.connection import Connection
    from widgets.proposals.propose_window import ProposeWindow
    from widgets.proposals.queue_window import QueueWindow
    from widgets.proposals.review_window import ReviewWindow

CurrentTask = Callable[[], tuple[AgentRow, str, int] | None]
"""The agent open in the window, the editor's text and the version it is based on."""


class ProposalsHub(QObject):
    """Opens the queue, reviews and the propose window for the window's connection."""

    counts_changed = Signal(dict)  # {agent id: open proposals}, for the sidebar
    task_published = Signal(str)  # an agent id whose Task a review just published
    said = Signal(str)  # one line for the window's messages
    available_changed = Signal(bool)  # whether this server has proposals

    def __init__(
        self,
        parent_window: QWidget,
        runner: Runner,
        current_task: CurrentTask,
        agent_name: Callable[[str], str],
    ) -> None:
        super().__init__(parent_window)
        self._window = parent_window
        self._runner = runner
        self._current_task = current_task
        self._agent_name = agent_name
        self.connection: Connection | None = None
        self.queue: ProposalQueue | None = None
        self.queue_window: QueueWindow | None = None
        self.reviews: dict[str, ReviewWindow] = {}
        self.propose_window: ProposeWindow | None = None
        self.available = True

    def set_connection(self, connection: Connection) -> None:
        """A new server: the old windows close, the queue is listed again (operators)."""
        self.connection = connection
        for window in [*self.reviews.values(), self.queue_window, self.propose_window]:
            if window is not None:
                window.close()
                window.deleteLater()
        self.reviews, self.queue_window, self.propose_window = {}, None, None
        if self.queue is not None:
            self.queue.deleteLater()
        self.queue = ProposalQueue(connection.client, self._runner, self)
        self.queue.counts_changed.connect(self.counts_changed)
        self.queue.available.connect(self._on_available)
        self.counts_changed.emit({})
        self.available = True
        # Asked of everyone: a member's answer (operators only) still says proposals exist.
        if not self._is_agent():
            self.queue.refresh()

    def _on_available(self, available: bool) -> None:
        if available != self.available:
            self.available = available
        self.available_changed.emit(available)

    def _is_agent(self) -> bool:
        """Signed in with an agent's token (a server that doesn't say takes us for a person)."""
        connection = self.connection
        return connection is not None and connection.features.me and connection.me.type == "agent"

    def _is_operator(self) -> bool:
        return self.connection is not None and self.connection.me.type == "operator"

    # ---------------------------------------------------------------- the queue

    def open_queue(self) -> None:
        if self.queue is None:
            self.said.emit("Connect to a server first.")
            return
        if not self.available:
            self.said.emit(NOT_ON_THIS_SERVER)
            return
        if self.queue_window is None:
            from widgets.proposals.queue_window import QueueWindow

            self.queue_window = QueueWindow(self.queue, self._agent_name, self._window)
            self.queue_window.open_requested.connect(self.open_review)
        self.queue_window.show()
        self.queue_window.raise_()
        self.queue.refresh()

    # ---------------------------------------------------------------- a review

    def open_review(self, proposal_id: str) -> None:
        connection = self.connection
        if connection is None:
            return
        if proposal_id in self.reviews:
            self.reviews[proposal_id].show()
            self.reviews[proposal_id].raise_()
            return
        from app.desk.proposal_review_desk import ReviewDesk
        from widgets.proposals.review_window import ReviewWindow

        desk = ReviewDesk(
            client=connection.client,
            store=connection.store,
            server_key=connection.server_key,
            runner=self._runner,
            org_id=connection.me.org_id,
            agents={a.id: a for a in connection.agents},
        )
        listed = self.queue.proposals if self.queue is not None else []
        agent_id = next((p.agent_id for p in listed if p.id == proposal_id), "")
        window = ReviewWindow(
            desk, self._agent_name(agent_id) if agent_id else "an agent", self._window
        )
        self.reviews[proposal_id] = window
        window.finished.connect(lambda said: self._on_review_finished(proposal_id, agent_id, said))
        window.destroyed.connect(lambda: self.reviews.pop(proposal_id, None))
        window.show()
        desk.open(proposal_id)

    def _on_review_finished(self, proposal_id: str, agent_id: str, said: str) -> None:
        self.said.emit(said)
        self.reviews.pop(proposal_id, None)
        if agent_id:
            self.task_published.emit(agent_id)
        if self.queue is not None:
            self.queue.refresh()

    # ---------------------------------------------------------------- proposing

    def propose(self) -> None:
        """Propose a change to the open Task, starting from the editor's text."""
        connection, current = self.connection, self._current_task()
        if connection is None or current is None:
            self.said.emit("Open an agent's Task first, then propose a change to it.")
            return
        if self._is_agent():
            self.said.emit("An agent's token can't propose changes: sign in as a person.")
            return
        if not self.available:
            self.said.emit(NOT_ON_THIS_SERVER)
            return
        agent, text, base_version = current
        if self.propose_window is not None:
            self.propose_window.close()
            self.propose_window.deleteLater()
        from app.desk.proposal_drafting import ProposalDrafting
        from widgets.proposals.propose_window import ProposeWindow

        drafting = ProposalDrafting(
            client=connection.client,
            store=connection.store,
            server_key=connection.server_key,
            runner=self._runner,
            agent_id=agent.id,
            me_id=connection.me.id,
        )
        self.propose_window = ProposeWindow(
            drafting,
            agent_name=agent.name,
            text=text,
            base_version=base_version,
            parent=self._window,
        )
        self.propose_window.submitted.connect(lambda _p: self._after_submit())
        self.propose_window.show()

    def _after_submit(self) -> None:
        if self.queue is not None and self._is_operator():
            self.queue.refresh()
