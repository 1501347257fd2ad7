"""A bounded, paced series of reads: one request at a time, a pause between starts.

What the app does on a server with only the spec's endpoints when it needs many Tasks (the
fleet, a search): it asks for them one by one, never two at once and at most one start per
``PACE_MS``, so an operator's window can't flood a server that was never built for it. A
new series replaces the one running (its answers are dropped) but keeps the pace.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QObject, QTimer

from app.desk.qobject_alive import alive_check
from app.desk.runner import Runner

PACE_MS = 100
"""The least time between the starts of two reads: at most ten requests a second."""

READ_LIMIT = 200
"""The most reads one series makes; what lies past it is said, not read."""

Read = Callable[[], Any]
OnEach = Callable[[int, Any, BaseException | None], None]


class PacedReads(QObject):
    """``start(reads, on_each, on_end)``: each read runs on the runner's net lane, one at a
    time; ``on_each(i, value, error)`` after each (one of value/error is set), ``on_end()``
    after the last. ``stop()`` drops the series."""

    def __init__(self, runner: Runner, parent: QObject | None = None, pace_ms: int = PACE_MS):
        super().__init__(parent)
        self._runner = runner
        self._pace_ms = pace_ms
        self._series = 0  # bumped by start/stop: an answer of an older series is dropped
        self._reads: list[Read] = []
        self._next = 0
        self._on_each: OnEach = lambda *_: None
        self._on_end: Callable[[], None] = lambda: None
        self._last_start = float("-inf")  # monotonic seconds; kept across series: the pace
        self._busy = False  # a read is on the wire (possibly of a series since replaced)
        self._alive = alive_check(self)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._start_next)

    @property
    def running(self) -> bool:
        return self._next < len(self._reads) or self._busy

    def start(self, reads: Sequence[Read], on_each: OnEach, on_end: Callable[[], None]) -> None:
        self._series += 1
        self._reads = list(reads[:READ_LIMIT])
        self._next = 0
        self._on_each, self._on_end = on_each, on_end
        if not self._reads:
            on_end()
            return
        if not self._busy:  # else the read on the wire schedules the next when it ends
            self._schedule()

    def stop(self) -> None:
        self._series += 1
        self._reads, self._next = [], 0
        self._timer.stop()

    def _schedule(self) -> None:
        waited_ms = (time.monotonic() - self._last_start) * 1000
        self._timer.start(max(0, round(self._pace_ms - min(waited_ms, self._pace_ms))))

    def _start_next(self) -> None:
        if self._busy or self._next >= len(self._reads):
            return
        index, series = self._next, self._series
        self._next += 1
        self._busy = True
        self._last_start = time.monotonic()

        def done(value: Any) -> None:
            self._ended(series, index, value, None)

        def failed(exc: BaseException) -> None:
            self._ended(series, index, None, exc)

        self._runner.submit(self._reads[index], on_done=done, on_error=failed)

    def _ended(self, series: int, index: int, value: Any, error: BaseException | None) -> None:
        if not self._alive():
            return
        self._busy = False
        if series == self._series:
            self._on_each(index, value, error)
            if series == self._series and self._next >= len(self._reads):
                self._on_end()
                return
        if self._next < len(self._reads):
            self._schedule()
