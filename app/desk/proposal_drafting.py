"""A person's proposals for one agent: the draft being written, submitting it, the outcomes.

The draft is kept in the local store a moment after each edit (as a Task draft is), so a
crash loses nothing. Submit marks the draft as "to send" before it goes out: when the server
can't be reached it stays so, and is sent again every ``RETRY_MS`` and whenever ``send_waiting``
is asked, until the server takes or refuses it. A refusal keeps the text and says why in one
sentence; the draft is then no longer sent by itself.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from PySide6.QtCore import QObject, QTimer, Signal

from app.client.api import TaskdeskClient
from app.client.errors import NotFound, NotWritable, Offline, TaskdeskError
from app.core import user_message
from app.core.proposal_models import Proposal
from app.desk.failures import describe_failure
from app.desk.liveness import Liveness
from app.desk.runner import Runner
from app.store.local_store import LocalStore
from app.store.proposal_reviews import ProposalDraft

log = logging.getLogger(__name__)

KEEP_MS = 400
RETRY_MS = 15_000
AGENT_CANNOT_PROPOSE = (
    "An agent's token can't propose changes to a Task: sign in as a person (a member or an "
    "operator) to propose one. Your text stays in the editor."
)
NO_PROPOSALS_HERE = (
    "This server has no proposals (it serves the spec's endpoints only): your text is kept "
    "as a draft on this computer."
)


class ProposalDrafting(QObject):
    """One agent's proposal draft and its author's proposals, on one server."""

    draft_found = Signal(object)  # ProposalDraft | None, answering ``load``
    submitted = Signal(object)  # Proposal: the server took it
    waiting = Signal(str)  # kept, to be sent when the server is back: in one sentence
    refused = Signal(str)  # the server's refusal in one sentence; the text is kept
    mine_listed = Signal(list)  # list[Proposal]: the signed-in person's, newest first
    withdrawn = Signal(object)  # Proposal
    message = Signal(object)  # UserMessage

    def __init__(
        self,
        *,
        client: TaskdeskClient,
        store: LocalStore,
        server_key: str,
        runner: Runner,
        agent_id: str,
        me_id: str,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._live = Liveness(self)
        self._client = client
        self._store = store
        self._key = server_key
        self._runner = runner
        self.agent_id = agent_id
        self._me_id = me_id
        self._pending: ProposalDraft | None = None  # the newest edit, not yet kept
        self._keep_timer = QTimer(self, singleShot=True, interval=KEEP_MS)
        self._keep_timer.timeout.connect(self._keep_now)
        self.retry_timer = QTimer(self, interval=RETRY_MS)
        self.retry_timer.timeout.connect(self.send_waiting)
        self._sending = False

    # ---------------------------------------------------------------- the draft

    def load(self) -> None:
        store, key, agent = self._store, self._key, self.agent_id
        self._live.submit(
            self._runner,
            lambda: store.proposal_draft(key, agent),
            on_done=self.draft_found.emit,
            lane="disk",
            doing="The proposal's draft could not be read",
        )

    def edited(
        self, text: str, base_version: int, title: str, note: str, proposal_id: str = ""
    ) -> None:
        """The draft changed: kept a moment later (one write for a burst of typing)."""
        self._pending = ProposalDraft(
            self._key, self.agent_id, proposal_id, text, base_version, title, note, False
        )
        self._keep_timer.start()

    def _keep_now(self) -> None:
        draft, self._pending = self._pending, None
        if draft is not None:
            self._keep(draft)

    def _keep(self, draft: ProposalDraft) -> None:
        store = self._store
        self._live.submit(
            self._runner,
            lambda: store.save_proposal_draft(draft),
            on_done=lambda _none: None,
            lane="disk",
            doing="The proposal's draft could not be kept",
        )

    # ---------------------------------------------------------------- sending

    def submit(
        self, text: str, base_version: int, title: str, note: str, proposal_id: str = ""
    ) -> None:
        """Keep the draft as "to send", then send it (a new proposal, or a revision)."""
        self._keep_timer.stop()
        self._pending = None
        draft = ProposalDraft(
            self._key, self.agent_id, proposal_id, text, base_version, title, note, True
        )
        self._keep(draft)
        self._send(draft)

    def send_waiting(self) -> None:
        """Send a submitted draft that is still waiting (the server was unreachable)."""
        if self._sending:
            return
        store, key, agent = self._store, self._key, self.agent_id

        def waiting() -> ProposalDraft | None:
            draft = store.proposal_draft(key, agent)
            return draft if draft is not None and draft.submit else None

        self._live.submit(
            self._runner,
            waiting,
            on_done=self._send_if_any,
            lane="disk",
            doing="The proposal could not be read",
        )

    def _send_if_any(self, draft: ProposalDraft | None) -> None:
        if draft is None:
            self.retry_timer.stop()
            return
        self._send(draft)

    def _send(self, draft: ProposalDraft) -> None:
        client = self._client
        self._sending = True

        def send() -> Proposal:
            if draft.proposal_id:
                return client.revise_proposal(
                    draft.proposal_id, draft.text, draft.base_version, draft.title, draft.note
                )
            return client.propose(
                draft.agent_id, draft.text, draft.base_version, draft.title, draft.note
            )

        self._live.submit(
            self._runner,
            send,
            on_done=lambda proposal: self._on_sent(draft, proposal),
            on_error=lambda exc: self._on_send_failed(draft, exc),
        )

    def _on_sent(self, draft: ProposalDraft, proposal: Proposal) -> None:
        self._sending = False
        self.retry_timer.stop()
        store = self._store
        self._live.submit(
            self._runner,
            lambda: store.remove_proposal_draft(draft.server, draft.agent_id, draft.text),
            on_done=lambda _none: None,
            on_error=lambda exc: log.warning("could not clear the sent proposal: %s", exc),
            lane="disk",
        )
        self.submitted.emit(proposal)

    def _on_send_failed(self, draft: ProposalDraft, exc: BaseException) -> None:
        self._sending = False
        if isinstance(exc, Offline):
            if not self.retry_timer.isActive():
                self.retry_timer.start()
            self.waiting.emit(
                "The server can't be reached: your proposal is kept on this computer and will "
                "be sent when the server is back."
            )
            return
        self._keep(replace(draft, submit=False))  # refused: kept, but not sent by itself
        if isinstance(exc, NotWritable):
            self.refused.emit(AGENT_CANNOT_PROPOSE)
        elif isinstance(exc, NotFound):
            self.refused.emit(NO_PROPOSALS_HERE)
        elif isinstance(exc, TaskdeskError):
            self.refused.emit(exc.message)
        else:
            self.refused.emit(describe_failure(exc, doing="The proposal could not be sent").text)

    # ---------------------------------------------------------------- the author's proposals

    def list_mine(self) -> None:
        client, agent, me = self._client, self.agent_id, self._me_id

        def mine() -> list[Proposal]:
            return [p for p in client.agent_proposals(agent) if p.author_id == me]

        self._live.submit(
            self._runner, mine, on_done=self.mine_listed.emit, on_error=self._quiet_failure
        )

    def open_proposal(self, proposal_id: str) -> Proposal:
        """Blocking: for the runner only (a revise starts from the proposal's own text)."""
        return self._client.proposal(proposal_id)

    def withdraw(self, proposal_id: str) -> None:
        client = self._client
        self._live.submit(
            self._runner,
            lambda: client.withdraw_proposal(proposal_id),
            on_done=self.withdrawn.emit,
            on_error=lambda exc: self.message.emit(
                describe_failure(exc, doing="The proposal could not be withdrawn")
            ),
        )

    def _quiet_failure(self, exc: BaseException) -> None:
        if isinstance(exc, NotFound):  # a spec-only server: nothing to list
            self.mine_listed.emit([])
            return
        self.message.emit(
            user_message.warning(
                describe_failure(exc, doing="Your proposals could not be listed").text
            )
        )
