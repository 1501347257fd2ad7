"""Python's cycle collector runs on the main (GUI) thread only, between tests (a plugin).

Left automatic, it runs on whichever thread allocates when a threshold is crossed, often a
Runner pool thread, and a QObject in a collected cycle (a closed window, a session) is then
destroyed there. Its destructor holds Qt's signal-slot lock while it waits for the GIL; the
GUI thread holds the GIL while it waits for that lock (connecting a signal, say), and the
whole run hangs, the per-test timeout included (seen in the window fault matrix).
"""

from __future__ import annotations

import gc

import pytest

FULL_EVERY = 25
"""Tests between full collections; the others get a young-generation one (about 1 ms)."""

_finished = 0


def pytest_configure(config: pytest.Config) -> None:
    gc.disable()


def pytest_unconfigure(config: pytest.Config) -> None:
    gc.enable()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After the test's fixtures are gone (windows closed), on the main thread."""
    global _finished
    _finished += 1
    gc.collect(2 if _finished % FULL_EVERY == 0 else 1)
