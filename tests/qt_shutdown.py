"""What a test process hands back to Qt before the interpreter goes (a plugin: tests/conftest.py).

Why: the clipboard of the offscreen platform (and of any platform without a system
clipboard) keeps its data in a process-wide static that is destroyed by the C library's
``exit()``, after the Python interpreter is gone. A ``QMimeData`` made in Python and put on
the clipboard belongs to that static; deleting it then calls back into Python, and the
process dies with SIGSEGV after every test has passed (seen when the last clipboard write
of a run was a test's own ``QMimeData``; tests/test_clean_exit.py shows it).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture
def clipboard(qapp: Any) -> Iterator[Any]:
    """The application's clipboard, emptied when the test ends (see the module docstring)."""
    board = qapp.clipboard()
    yield board
    board.clear()


def release_qt_objects() -> None:
    """Empty the clipboard while Python can still take back what a test put there."""
    if "PySide6.QtGui" not in sys.modules:
        return  # no test used Qt
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.instance() is not None:
        QGuiApplication.clipboard().clear()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    release_qt_objects()  # for a test that used the clipboard without the fixture
