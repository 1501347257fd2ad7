"""The cycle collector runs on the GUI thread only, on a timer, over what start-up didn't make."""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

TICK_MS = 500
"""A young collection this often, once start-up is over (about 1 ms)."""
MIDDLE_EVERY = 4
FULL_EVERY = 60
"""Ticks between full collections: every 30 s, over the objects made after start-up."""
START_UP_STEPS = frozenset({"agent shown", "notes listed"})
"""The first agent's Task on screen; the org's notes for the picker in (50,000 at scale)."""
START_UP_LIMIT_MS = 30_000
"""Start-up is over by then even if a step never came (no server, no notes)."""


class GuiThreadCollector(QObject):
    """Python's automatic collections, replaced by timed ones on the GUI thread.

    Left automatic, a collection runs on whichever thread crosses the threshold, holding the
    GIL while it walks every object: a worker building a 50,000-note list set off four full
    passes of 50-100 ms in a row at start (measured at 5k agents / 50k notes), each one a
    stall of the window. And a QObject in a collected cycle is destroyed on that worker
    thread, which can deadlock against the GUI thread on Qt's signal lock.

    Here nothing is collected during start-up: what it makes (the imported code, the window,
    the org's lists) is kept for the session anyway, and a young pass over it walked it all
    (270 ms). When start-up is over it is frozen, out of every later pass; frozen objects
    are still freed by their reference counts when let go (the org's lists hold no cycles).
    From then on collections happen only between GUI events, over what came after.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ticks = 0
        self._steps_done: set[str] = set()
        self._starting = True
        gc.disable()
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._collect)
        self._timer.start()
        QTimer.singleShot(START_UP_LIMIT_MS, self, self._start_up_over)

    @property
    def starting(self) -> bool:
        return self._starting

    def start_up_step(self, step: str) -> None:
        """A step of start-up is done (one of ``START_UP_STEPS``); after the last, start-up
        is over. Later calls (another agent, another server) change nothing."""
        self._steps_done.add(step)
        if self._steps_done >= START_UP_STEPS:
            self._start_up_over()

    def stop(self) -> None:
        """No more timed collections (automatic ones stay off)."""
        self._timer.stop()
        self._starting = False

    def _start_up_over(self) -> None:
        if self._starting:
            self._starting = False
            # No pass first: a young one would walk all of start-up (the point of freezing);
            # the little cyclic garbage it left stays frozen, once.
            gc.freeze()

    def _collect(self) -> None:
        if self._starting:
            return
        self._ticks += 1
        if self._ticks % FULL_EVERY == 0:
            gc.collect(2)
        elif self._ticks % MIDDLE_EVERY == 0:
            gc.collect(1)
        else:
            gc.collect(0)
