"""The org's open proposals, oldest first, for View › Proposals and the sidebar's marks."""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import QObject, Signal

from app.client.api import TaskdeskClient
from app.client.errors import NotFound, ProposalRefused
from app.core.proposal_models import Proposal
from app.desk.failures import describe_failure
from app.desk.liveness import Liveness
from app.desk.runner import Runner

NOT_ON_THIS_SERVER = (
    "This server has no proposals: it serves the spec's endpoints only, so Tasks can be "
    "read here but changes can't be proposed or reviewed."
)


class ProposalQueue(QObject):
    """Lists the open proposals on ``refresh``; ``counts`` per agent for the sidebar."""

    listed = Signal(list)  # list[Proposal], oldest first
    counts_changed = Signal(dict)  # {agent id: open proposals}
    unavailable = Signal(str)  # why there is no queue here, in one sentence
    available = Signal(bool)  # whether this server has proposals at all (learnt on a refresh)
    message = Signal(object)  # UserMessage

    def __init__(self, client: TaskdeskClient, runner: Runner, parent: QObject | None = None):
        super().__init__(parent)
        self._live = Liveness(self)
        self._client = client
        self._runner = runner
        self.proposals: list[Proposal] = []
        self.counts: dict[str, int] = {}

    def refresh(self) -> None:
        client = self._client
        self._live.submit(
            self._runner,
            lambda: client.org_proposals("open"),
            on_done=self._on_listed,
            on_error=self._on_error,
        )

    def _on_listed(self, proposals: list[Proposal]) -> None:
        self.proposals = proposals
        self.counts = dict(Counter(p.agent_id for p in proposals))
        self.listed.emit(proposals)
        self.counts_changed.emit(self.counts)
        self.available.emit(True)

    def _on_error(self, exc: BaseException) -> None:
        if isinstance(exc, NotFound):
            self.available.emit(False)
            self.unavailable.emit(NOT_ON_THIS_SERVER)
        elif isinstance(exc, ProposalRefused):
            self.available.emit(True)  # a member: proposals are here, the queue is for operators
            self.unavailable.emit(exc.message)
        else:
            self.message.emit(describe_failure(exc, doing="The proposals could not be listed"))
