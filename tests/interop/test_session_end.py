"""SIGTERM or the desktop session ending with unsaved edits: the draft is kept, the app quits."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication

from tests.live_server import LiveServer
from tests.window_steps import LOAD_TIMEOUT_MS, sign_in, type_at_end
from widgets.window.main_window import MainWindow
from widgets.window.session_end import SessionEnd


@pytest.fixture
def handlers() -> Iterator[None]:
    """The test's signal handlers are put back afterwards."""
    saved = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
    yield
    for sig, handler in saved.items():
        signal.signal(sig, handler)


def test_sigterm_with_unsaved_edits_keeps_the_draft_and_closes_without_asking(
    qtbot, make_window, live_server: LiveServer, handlers: None
) -> None:
    window: MainWindow = make_window()
    sign_in(qtbot, window, live_server.url, live_server.token("ann"))
    text = type_at_end(qtbot, window, "Unsaved words.")
    ending = SessionEnd(QApplication.instance(), window)  # type: ignore[arg-type]
    ending.install_signals()
    # The operator had already asked to close: the question is on screen when SIGTERM comes.
    window.close()
    assert window.isVisible() and window.leave_dialog is not None
    os.kill(os.getpid(), signal.SIGTERM)
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=LOAD_TIMEOUT_MS)
    assert ending.ended
    connection = window.connection
    assert connection is not None
    window.runner.wait_idle()  # the draft is written off the GUI thread
    draft = connection.store.get_draft(connection.server_key, "a_scout")
    assert draft is not None and draft.text == text
