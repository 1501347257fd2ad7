"""Whether a QObject still exists: for a job's answer that comes back after its window closed."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject


def alive_check(obj: QObject) -> Callable[[], bool]:
    """A callable that turns False once ``obj``'s C++ side is destroyed (its window closed):
    emitting a signal of a destroyed object raises, so late answers are dropped instead."""
    alive = [True]
    obj.destroyed.connect(lambda *_: alive.__setitem__(0, False))
    return lambda: alive[0]
