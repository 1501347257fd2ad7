"""Shared test set-up: offscreen Qt, the live-server fixtures, and a clean exit code."""

from __future__ import annotations

import os
import sys

import pytest

# Before any Qt import: tests never need a display.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")

pytest_plugins = ["tests.live_server", "tests.figures"]

_exit_status: int | None = None


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    global _exit_status
    _exit_status = int(exitstatus)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """End the process with pytest's own status once everything is reported.

    After a thousand widgets, interpreter teardown can destroy PySide6 wrappers and the
    QApplication in an order Qt does not expect, and the process then dies with SIGSEGV
    (seen once in CI) after every test had passed. The verdict is already printed; the
    app's own shutdown is covered by tests that start and stop the real program.
    """
    if _exit_status is None or "PySide6.QtCore" not in sys.modules:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(_exit_status)
