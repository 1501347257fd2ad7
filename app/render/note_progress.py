"""Counts one preview's note lookups, from the fetching threads, for its progress callback."""

from __future__ import annotations

import threading
from collections.abc import Callable

Progress = Callable[[int, int], None]
"""``progress(done, asked)``: note lookups finished, and asked so far, in one preview."""


class LookupCounter:
    """Counts one preview's note lookups for its progress callback (from several threads)."""

    def __init__(self, report: Progress | None) -> None:
        self._report = report
        self._lock = threading.Lock()
        self.done = 0
        self.asked = 0

    def add(self, asked: int) -> None:
        with self._lock:
            self.asked += asked
            done, total = self.done, self.asked
        if self._report is not None:
            self._report(done, total)

    def one_done(self) -> None:
        with self._lock:
            self.done += 1
            done, total = self.done, self.asked
        if self._report is not None:
            self._report(done, total)
