"""A change set filed as one proposal per Task: the controller the preview's "File as
proposals" observes.

There is no bulk endpoint for proposals (API.md "Proposals"), so each ticked Task is one
``POST /api/agents/:id/proposals`` against the version the preview was built on, a few at a
time from a worker; ``progress(done, total)`` follows them and ``filed`` says which went and,
in one sentence each, which didn't. A member may use it: proposals are for every person of
the org, where a change set is for operators alone.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import QObject, Signal

from app.core.change_plan import PlanRow, ticked_changes
from app.core.proposal_models import Proposal
from app.core.wording import counted
from app.desk.failures import failure_text
from app.desk.qobject_alive import alive_check
from app.desk.runner import Runner

FILING_THREADS = 4
"""Proposals sent side by side: enough to file a thousand in seconds, few enough not to
crowd the server or the GUI thread's share of the interpreter."""
NO_PROPOSALS = (
    "This server has no proposals (it serves the spec's endpoints only): nothing was filed."
)
NOT_SENT = "Not sent: filing was stopped."


class ProposingClient(Protocol):
    """What filing needs of ``TaskdeskClient``."""

    def propose(
        self, agent_id: str, content: str, base_version: int, title: str, note: str = ""
    ) -> Proposal: ...


@dataclass(frozen=True, slots=True)
class FiledProposals:
    """What a filing did: ``filed`` (agent id, proposal id), ``failed`` (agent id, why)."""

    filed: tuple[tuple[str, str], ...]
    failed: tuple[tuple[str, str], ...]

    def sentence(self) -> str:
        """One line for the preview's status."""
        said = f"Filed {counted(len(self.filed), 'proposal')} for an operator to review."
        if not self.filed:
            said = "No proposal was filed."
        if self.failed:
            reasons = sorted({why for _, why in self.failed})
            which = ", ".join(agent_id for agent_id, _ in self.failed[:10])
            more = f" and {len(self.failed) - 10:,} more" if len(self.failed) > 10 else ""
            said += f" Not filed for {which}{more}: {' '.join(reasons[:2])}"
        return said


def file_all(
    client: ProposingClient,
    title: str,
    rows: Sequence[PlanRow],
    *,
    on_progress: Callable[[int, int], None] | None = None,
    stop: threading.Event | None = None,
) -> FiledProposals:
    """Blocking: file one proposal per row (for a worker). A 404 that is the server lacking
    proposals, not a missing agent, ends it at once; the rest are listed as not filed."""
    from app.client.errors import AgentGone, NotFound

    total = len(rows)
    note = f"One of {total:,} proposals filed together as “{title}”." if total > 1 else ""
    lock = threading.Lock()
    done = [0]
    missing = threading.Event()  # the server has no proposals
    stop = stop or threading.Event()

    def one(row: PlanRow) -> tuple[str, str, bool]:
        if missing.is_set():
            return row.agent_id, NO_PROPOSALS, False
        if stop.is_set():
            return row.agent_id, NOT_SENT, False
        try:
            made = client.propose(row.agent_id, row.after, row.expected_version, title, note)
            outcome = (row.agent_id, made.id, True)
        except NotFound as exc:
            if not isinstance(exc, AgentGone):
                missing.set()
                outcome = (row.agent_id, NO_PROPOSALS, False)
            else:
                outcome = (row.agent_id, failure_text(exc), False)
        except Exception as exc:  # each Task's refusal is its own; the rest go on
            outcome = (row.agent_id, failure_text(exc), False)
        with lock:  # told under the lock, so the counts arrive in order and the last is total
            done[0] += 1
            if on_progress is not None:
                on_progress(done[0], total)
        return outcome

    with ThreadPoolExecutor(FILING_THREADS) as pool:
        outcomes = list(pool.map(one, rows))
    return FiledProposals(
        tuple((a, pid) for a, pid, ok in outcomes if ok),
        tuple((a, why) for a, why, ok in outcomes if not ok),
    )


class ProposalFiling(QObject):
    """``file(title, rows)`` → ``progress(done, total)``… then ``filed(FiledProposals)``;
    a title or selection that can't go is a ``failed`` sentence, nothing sent."""

    progress = Signal(int, int)
    filed = Signal(object)  # FiledProposals
    failed = Signal(str)

    def __init__(
        self, runner: Runner, client: ProposingClient, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._runner = runner
        self._client = client
        self._stop = threading.Event()
        self._alive = alive_check(self)
        self.busy = False

    def file(self, title: str, rows: Sequence[PlanRow]) -> None:
        going = ticked_changes(rows)
        title = title.strip()
        if not 1 <= len(title) <= 200:
            self.failed.emit("Give the proposals a title of 1 to 200 characters.")
            return
        if not going:
            self.failed.emit("Nothing to file: tick at least one Task that the edit changes.")
            return
        client, stop = self._client, self._stop
        progress = self.progress

        def told(done: int, total: int) -> None:
            try:  # a signal crosses to the GUI thread queued; a closed preview drops it
                progress.emit(done, total)
            except RuntimeError:
                stop.set()

        def done(outcome: FiledProposals) -> None:
            if self._alive():
                self.busy = False
                self.filed.emit(outcome)

        def failed(exc: BaseException) -> None:
            if self._alive():
                self.busy = False
                self.failed.emit(failure_text(exc))

        self.busy = True
        self._runner.submit(
            lambda: file_all(client, title, going, on_progress=told, stop=stop),
            on_done=done,
            on_error=failed,
        )

    def stop(self) -> None:
        """Send no more (the preview closed): the ones on their way still land."""
        self._stop.set()
