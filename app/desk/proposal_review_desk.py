"""An operator's review of one proposal: load, decide hunk by hunk, publish or decline.

All network, disk and diff work runs on the runner; the desk emits typed outcomes the review
window shows. Decisions are kept in the local store as they are made, so a review survives a
restart. A publish that meets a moved Task (409) loads the new live Task and rebases the
proposal onto it again, keeping every decision: the operator looks at what can't be placed
now, then publishes again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, Signal

from app.client.api import TaskdeskClient
from app.client.errors import NotFound, ProposalNotOpen, TaskdeskError, VersionConflict
from app.core import user_message
from app.core.diff_model import SideBySide, build_diff
from app.core.expander import Lookup, task_display_path
from app.core.models import AgentRow, OrgFile, Reader, TaskDoc
from app.core.proposal_effect import EffectiveChange, effective_change
from app.core.proposal_models import Proposal
from app.core.proposal_review import (
    Decision,
    HunkDecision,
    ReviewBasis,
    ReviewResult,
    review_basis,
    review_result,
)
from app.core.task_shape import check_task_shape
from app.desk.failures import describe_failure
from app.desk.liveness import Liveness
from app.desk.runner import Runner
from app.store.local_store import LocalStore

log = logging.getLogger(__name__)


@dataclass
class ReviewData:
    """Everything one review shows, loaded off the GUI thread."""

    proposal: Proposal
    task: TaskDoc
    basis: ReviewBasis
    decisions: dict[str, HunkDecision]
    base_kept: bool  # False: the base version is gone; the review compares with live
    since: tuple[int, str] | None  # (revision last seen, its text) when revised since
    since_diff: SideBySide | None = None  # that text → this revision's
    notes: dict[str, OrgFile | None] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ReviewOutcome:
    """The result of the current decisions and what it does to the agent's run."""

    result: ReviewResult
    effect: EffectiveChange
    result_diff: SideBySide  # live → the result
    effect_diff: SideBySide  # the expanded Task, live → the result


def review_outcome(
    basis: ReviewBasis,
    decisions: Mapping[str, HunkDecision],
    reader: Reader,
    lookup: Lookup,
    org_id: str,
    task_path: str,
) -> ReviewOutcome:
    """The result of ``decisions``, its diff on live, and the Task as the agent gets it."""
    result = review_result(basis, decisions)
    effect = effective_change(
        basis.live,
        result.text,
        org_id=org_id,
        reader=reader,
        lookup=lookup,
        task_path=task_path,
        with_shape=False,  # checked next, on its own (``shape_checked``)
    )
    result_diff = build_diff(basis.live, result.text)
    same = (effect.before, effect.after) == (basis.live, result.text)
    # Without embeds the agent gets the Task as written: one diff serves both views.
    effect_diff = result_diff if same else build_diff(effect.before, effect.after)
    return ReviewOutcome(result, effect, result_diff, effect_diff)


def load_review(
    client: TaskdeskClient, store: LocalStore, server_key: str, proposal_id: str
) -> ReviewData:
    """The proposal, the live Task, the base text, the decisions kept, what changed since."""
    proposal = client.proposal(proposal_id)
    task = client.get_task(proposal.agent_id)
    return rebuild(client, store, server_key, proposal, task)


def rebuild(
    client: TaskdeskClient, store: LocalStore, server_key: str, proposal: Proposal, task: TaskDoc
) -> ReviewData:
    base = _text_at(task, proposal.base_version)
    base_kept = base is not None
    basis = review_basis(
        base if base is not None else task.content,
        task.content,
        proposal.content,
        base_version=proposal.base_version if base_kept else task.version,
        live_version=task.version,
    )
    kept = store.hunk_decisions(server_key, proposal.id)
    known = {h.key for h in basis.hunks}
    decisions = {
        key: HunkDecision(Decision(decision), text)
        for key, (decision, text) in kept.items()
        if key in known
    }
    seen = store.proposal_seen(server_key, proposal.id)
    since, since_diff = None, None
    if seen is not None and seen < proposal.revision:
        since = (seen, client.proposal(proposal.id, revision=seen).content)
        since_diff = build_diff(since[1], proposal.content)
    return ReviewData(proposal, task, basis, decisions, base_kept, since, since_diff)


def _text_at(task: TaskDoc, version: int) -> str | None:
    if version == task.version:
        return task.content
    return next((r.content for r in task.revisions if r.version == version), None)


class ReviewDesk(QObject):
    """Performs one review; ``open`` first, then ``decide``, ``publish`` or ``decline``."""

    loaded = Signal(object)  # ReviewData
    outcome_changed = Signal(object)  # ReviewOutcome for the current decisions
    shape_checked = Signal(tuple)  # the shape check's advice on that outcome's text
    published = Signal(int)  # the new live version
    declined = Signal()
    closed_elsewhere = Signal(str)  # the proposal is no longer open: why, in one sentence
    message = Signal(object)  # UserMessage
    busy_changed = Signal(bool)

    def __init__(
        self,
        *,
        client: TaskdeskClient,
        store: LocalStore,
        server_key: str,
        runner: Runner,
        org_id: str,
        agents: Mapping[str, AgentRow],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._live = Liveness(self)
        self._client = client
        self._store = store
        self._server_key = server_key
        self._runner = runner
        self._org_id = org_id
        self._agents = agents
        self.data: ReviewData | None = None
        self.outcome: ReviewOutcome | None = None
        self.shape: tuple[str, ...] | None = None  # the shape check of ``outcome``'s text
        self._generation = 0  # the newest outcome asked for wins
        self.busy = False

    # ---------------------------------------------------------------- loading

    def open(self, proposal_id: str) -> None:
        client, store, key = self._client, self._store, self._server_key
        self._set_busy(True)
        self._live.submit(
            self._runner,
            lambda: load_review(client, store, key, proposal_id),
            on_done=self._on_loaded,
            on_error=self._on_failed("The proposal could not be opened"),
        )

    def _on_loaded(self, data: ReviewData) -> None:
        self._set_busy(False)
        self.data = data
        self.loaded.emit(data)
        self._recompute()
        store, key, proposal = self._store, self._server_key, data.proposal
        self._live.submit(
            self._runner,
            lambda: store.mark_proposal_seen(key, proposal.id, proposal.revision),
            on_done=lambda _none: None,
            on_error=lambda exc: log.warning("could not remember the revision seen: %s", exc),
            lane="disk",
        )

    # ---------------------------------------------------------------- deciding

    def decide(self, hunk_key: str, decision: Decision | None, text: str = "") -> None:
        """Accept, reject or edit one hunk (None: undecided again); kept in the store."""
        data = self.data
        if data is None:
            return
        if decision is None:
            data.decisions.pop(hunk_key, None)
        else:
            data.decisions[hunk_key] = HunkDecision(decision, text)
        store, key, proposal_id = self._store, self._server_key, data.proposal.id
        kept = decision.value if decision is not None else None
        self._live.submit(
            self._runner,
            lambda: store.save_hunk_decision(key, proposal_id, hunk_key, kept, text),
            on_done=lambda _none: None,
            on_error=self._on_failed("Your decision could not be kept on this computer"),
            lane="disk",
        )
        self._recompute()

    def _recompute(self) -> None:
        data = self.data
        if data is None:
            return
        self._generation += 1
        generation = self._generation
        self.outcome = None  # stale from here: nothing may publish it
        decisions = dict(data.decisions)
        compute = self._outcome_of(data, decisions)
        self._live.submit(
            self._runner,
            compute,
            on_done=lambda outcome: self._on_outcome(generation, outcome),
            on_error=self._on_failed("The proposal's result could not be worked out"),
        )

    def _outcome_of(
        self, data: ReviewData, decisions: dict[str, HunkDecision]
    ) -> Callable[[], ReviewOutcome]:
        agent = self._agents.get(data.proposal.agent_id)
        reader = Reader(data.proposal.agent_id, agent.guild_id if agent else "")
        notes, client, org_id = data.notes, self._client, self._org_id

        def lookup(path: str) -> OrgFile | None:
            if path not in notes:  # each note fetched once per review
                try:
                    notes[path] = client.note(path)
                except NotFound:
                    notes[path] = None
            return notes[path]

        task_path = task_display_path(org_id, data.proposal.agent_id)
        return lambda: review_outcome(data.basis, decisions, reader, lookup, org_id, task_path)

    def _on_outcome(self, generation: int, outcome: ReviewOutcome) -> None:
        if generation != self._generation:
            return  # a newer decision's outcome is on its way
        self.outcome = outcome
        self.shape = None
        self.outcome_changed.emit(outcome)
        text = outcome.result.text
        self._live.submit(
            self._runner,
            lambda: check_task_shape(text).advice,
            on_done=lambda advice: self._on_shape(generation, advice),
            on_error=self._on_failed("The shape of the result could not be checked"),
        )

    def _on_shape(self, generation: int, advice: tuple[str, ...]) -> None:
        if generation == self._generation:
            self.shape = advice
            self.shape_checked.emit(advice)

    # ---------------------------------------------------------------- deciding the proposal

    def can_publish(self) -> bool:
        return (
            not self.busy
            and self.outcome is not None
            and self.data is not None
            and self.outcome.result.can_publish
            and len(self.data.decisions) >= len(self.data.basis.hunks)
        )

    def publish(self) -> None:
        data, outcome = self.data, self.outcome
        if data is None or outcome is None or not self.can_publish():
            return
        client, text = self._client, outcome.result.text
        proposal_id, live_version = data.proposal.id, data.basis.live_version
        self._set_busy(True)
        self._live.submit(
            self._runner,
            lambda: client.publish_proposal(proposal_id, text, live_version),
            on_done=lambda published: self._on_published(published.proposal.published_version),
            on_error=self._on_publish_failed,
        )

    def _on_published(self, version: int | None) -> None:
        self._set_busy(False)
        self.published.emit(version or 0)

    def _on_publish_failed(self, exc: BaseException) -> None:
        self._set_busy(False)
        data = self.data
        if isinstance(exc, VersionConflict) and data is not None:
            now = f"v{exc.live_version}" if exc.live_version is not None else "a newer version"
            self.message.emit(
                user_message.warning(
                    f"The Task moved to {now} while you reviewed: the proposal is rebased onto "
                    "it again, with your decisions kept. Check what can't be placed, then "
                    "publish again."
                )
            )
            self._reload(data.proposal)
            return
        self._closing_failure(exc, "The proposal could not be published")

    def _reload(self, proposal: Proposal) -> None:
        client, store, key = self._client, self._store, self._server_key

        held = dict(self.data.decisions) if self.data is not None else {}

        def fresh() -> ReviewData:
            data = rebuild(client, store, key, proposal, client.get_task(proposal.agent_id))
            # The decisions in hand, not the store's: its newest write may not have landed.
            known = {h.key for h in data.basis.hunks}
            data.decisions = {k: d for k, d in held.items() if k in known}
            return data

        self._set_busy(True)
        self._live.submit(
            self._runner,
            fresh,
            on_done=self._on_loaded,
            on_error=self._on_failed("The live Task could not be read"),
        )

    def decline(self, reason: str) -> None:
        data = self.data
        if data is None or self.busy:
            return
        client, proposal_id = self._client, data.proposal.id
        self._set_busy(True)
        self._live.submit(
            self._runner,
            lambda: client.decline_proposal(proposal_id, reason),
            on_done=lambda _proposal: self._on_declined(),
            on_error=lambda exc: self._closing_failure(exc, "The proposal could not be declined"),
        )

    def _on_declined(self) -> None:
        self._set_busy(False)
        self.declined.emit()

    def _closing_failure(self, exc: BaseException, doing: str) -> None:
        self._set_busy(False)
        if isinstance(exc, ProposalNotOpen):
            self.closed_elsewhere.emit(exc.message)
            return
        if isinstance(exc, NotFound):
            self.closed_elsewhere.emit(
                "This proposal or its agent's Task is gone from the server: it was deleted "
                "while you reviewed. Nothing was published."
            )
            return
        self.message.emit(describe_failure(exc, doing=doing))

    # ---------------------------------------------------------------- plumbing

    def _on_failed(self, doing: str) -> Callable[[BaseException], None]:
        def failed(exc: BaseException) -> None:
            self._set_busy(False)
            if not isinstance(exc, TaskdeskError):
                log.error("%s", doing, exc_info=exc)
            self.message.emit(describe_failure(exc, doing=doing))

        return failed

    def _set_busy(self, busy: bool) -> None:
        self.busy = busy
        self.busy_changed.emit(busy)
