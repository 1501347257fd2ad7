"""The one way work leaves the GUI thread: jobs on thread pools, results back as signals."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Literal, Protocol, TypeVar, cast

from PySide6.QtCore import (
    QCoreApplication,
    QDeadlineTimer,
    QObject,
    QRunnable,
    Qt,
    QThreadPool,
    Signal,
    Slot,
)

from app.core.user_message import MessageKey
from app.desk.failures import describe_failure

T = TypeVar("T")

Lane = Literal["net", "disk"]
Failed = Callable[[BaseException], object]
Outcome = tuple[bool, object]  # (True, the result) or (False, the exception)

NET_THREADS = 4
"""Requests run side by side (a save, a remote check, a preview's note fetch)."""

NET_GIVE_UP_MS = 1_000
"""How long shutdown waits, past its timeout, for a request that was not cancelled."""

log = logging.getLogger(__name__)


class _Delivery(Protocol):
    def deliver(self, outcome: Outcome) -> None: ...


@dataclass(slots=True)
class _Callbacks(Generic[T]):
    """One job's callbacks, typed by its function's result."""

    on_done: Callable[[T], object]
    on_error: Failed

    def deliver(self, outcome: Outcome) -> None:
        ok, value = outcome
        if _receiver_gone(self.on_done if ok else self.on_error):
            # A closed dialog's method: Qt drops a signal to a deleted receiver, and so do we.
            log.debug("a job's answer came after its receiver was closed; dropped")
            return
        if ok:
            # The value is what this job's own ``fn: Callable[[], T]`` returned.
            self.on_done(cast(T, value))
        else:
            self.on_error(cast(BaseException, value))


def _receiver_gone(callback: Callable[..., object]) -> bool:
    """``callback`` is a method of a QObject that has been deleted (a dialog closed before
    its work came back)."""
    owner = getattr(callback, "__self__", None)
    if not isinstance(owner, QObject):
        return False
    try:
        owner.objectName()  # any call on a deleted QObject's wrapper raises RuntimeError
    except RuntimeError:
        return True
    return False


def _run(fn: Callable[[], object]) -> Outcome:
    try:
        return (True, fn())
    except BaseException as exc:  # every failure must reach a callback, never vanish
        return (False, exc)


class _Job(QRunnable):
    """Runs one function on a pool thread and hands the outcome to the runner.

    The job lets go of the function before it signals: the runner (on the GUI thread) holds
    the last references to the callbacks and whatever they capture, so QObjects captured in
    them are never destroyed on a pool thread.
    """

    def __init__(self, runner: Runner, job_id: int, fn: Callable[[], object]) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self._runner = runner
        self._id = job_id
        self._fn: Callable[[], object] | None = fn

    def run(self) -> None:
        fn, self._fn = self._fn, None
        assert fn is not None
        outcome = _run(fn)
        del fn
        self._runner._keep_outcome(self._id, outcome)
        del outcome
        self._runner._post_finished(self._id)


class Runner(QObject):
    """Runs functions off the GUI thread and calls back on it.

    ``submit(fn, on_done=, on_error=, lane=)`` runs ``fn()`` on a pool: the ``net`` lane has
    a few threads; the ``disk`` lane has one, so disk writes (drafts) land in the order they
    were submitted. ``on_done(result)`` or ``on_error(exc)`` is then called on the thread the
    runner lives in (the GUI thread) through a queued signal. Exactly one of them is called for
    every job, whatever ``fn`` raises.

    Failures reach the operator by default: without an ``on_error`` the failure becomes a
    ``describe_failure`` message on ``failed``, which the window shows. A caller that handles
    failures itself passes its own ``on_error``.

    ``Runner(sync=True)`` runs each job inline and calls back at once: a deterministic mode for
    unit tests and the stateful property test.
    """

    failed = Signal(object)  # UserMessage: a job without its own on_error failed
    _finished = Signal(int)  # a job id, emitted from pool threads

    def __init__(self, *, sync: bool = False, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.sync = sync
        # The function stays here too: its captures are let go on this thread, not the pool's.
        self._jobs: dict[int, tuple[Callable[[], object], _Delivery]] = {}
        self._outcomes: dict[int, Outcome] = {}
        self._outcomes_lock = threading.Lock()
        self._next_id = 0
        self._closed = False
        # Set under the lock when shutdown is over: a request it gave up on that ends later
        # posts nothing into a runner that its window may be deleting by then.
        self._gone = False
        self._net = QThreadPool(self)
        self._net.setMaxThreadCount(NET_THREADS)
        self._disk = QThreadPool(self)
        self._disk.setMaxThreadCount(1)  # one thread: writes keep their order
        # Queued: the callback runs in the runner's own thread, not the pool's.
        self._finished.connect(self._deliver, Qt.ConnectionType.QueuedConnection)

    @property
    def pending(self) -> int:
        """Jobs submitted whose callback has not run yet."""
        return len(self._jobs)

    def is_idle(self) -> bool:
        return not self._jobs

    @property
    def closed(self) -> bool:
        """``shutdown`` has run: nothing more may be submitted."""
        return self._closed

    def submit(
        self,
        fn: Callable[[], T],
        *,
        on_done: Callable[[T], object],
        on_error: Failed | None = None,
        lane: Lane = "net",
        doing: str = "",
        key: MessageKey = MessageKey.NONE,
    ) -> None:
        """Runs ``fn`` on ``lane``; exactly one of ``on_done``/``on_error`` follows.

        Without ``on_error`` a failure is said on ``failed``, led by ``doing`` ("The versions
        could not be compared") and filed under ``key``.
        """
        if lane not in ("net", "disk"):
            raise ValueError(f"unknown lane {lane!r}")
        if self._closed:
            raise RuntimeError("the runner has been shut down")
        if on_error is None:
            on_error = self._say_failure(doing, key)
        callbacks = _Callbacks(on_done, on_error)
        if self.sync:
            callbacks.deliver(_run(fn))
            return
        self._next_id += 1
        self._jobs[self._next_id] = (fn, callbacks)
        pool = self._net if lane == "net" else self._disk
        pool.start(_Job(self, self._next_id, fn))

    def _say_failure(self, doing: str, key: MessageKey) -> Failed:
        def say(exc: BaseException) -> None:
            self.failed.emit(describe_failure(exc, doing=doing, key=key))

        return say

    def _post_finished(self, job_id: int) -> None:
        """From a pool thread: the job's outcome is kept; its callback is due."""
        with self._outcomes_lock:
            if not self._gone:
                self._finished.emit(job_id)

    def _keep_outcome(self, job_id: int, outcome: Outcome) -> None:
        with self._outcomes_lock:
            self._outcomes[job_id] = outcome

    @Slot(int)
    def _deliver(self, job_id: int) -> None:
        with self._outcomes_lock:
            outcome = self._outcomes.pop(job_id)
        _, callbacks = self._jobs.pop(job_id)
        callbacks.deliver(outcome)

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        """Waits until every job has run and its callback has been delivered.

        For tests and shutdown only: it blocks the calling thread. Callbacks may submit more
        work; that is waited for too. False when ``timeout_ms`` ran out first.
        """
        deadline = QDeadlineTimer(timeout_ms)
        while self._jobs:
            remaining = max(0, deadline.remainingTime())
            if not (self._net.waitForDone(remaining) and self._disk.waitForDone(remaining)):
                return False
            # The jobs are done; their callbacks are posted events on this object.
            QCoreApplication.sendPostedEvents(self)
            if self._jobs and deadline.hasExpired():
                return False
        return True

    def shutdown(self, timeout_ms: int = 10_000) -> bool:
        """Lets running and queued jobs finish (queued draft writes must land), then closes.

        Returns False when jobs were still running at the timeout; their callbacks are
        dropped, but the pools are waited for again so no thread outlives the runner.
        """
        finished = self.wait_idle(timeout_ms)
        self._closed = True
        if not finished:
            log.warning("background jobs still running at shutdown; waiting for them")
            self._disk.waitForDone()  # draft writes: never dropped
            # Requests: their owner cancels them before this (the window cuts its client's
            # sockets); one that still runs is not worth keeping a quitting process for.
            if not self._net.waitForDone(NET_GIVE_UP_MS):
                log.warning("a request was still running at shutdown; not waiting for it")
            QCoreApplication.sendPostedEvents(self)
        with self._outcomes_lock:
            self._gone = True
        return finished
