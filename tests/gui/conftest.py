"""GUI fixtures: the real MainWindow signed in to a real reference server over loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.client import TaskdeskClient
from tests.live_server import WORKSPACE_BASIC, LiveServer
from tests.window_steps import WindowFactory, fresh_home, make_window, sign_in
from widgets.window.main_window import MainWindow

__all__ = ["fresh_home", "make_window"]

SPEC_ONLY_TOKENS = {"ann": "ann-secret", "bob": "bob-secret", "mia": "mia-secret"}


@pytest.fixture
def spec_only(tmp_path: Path) -> Iterator[LiveServer]:
    """A reference server with every EXTENSION endpoint absent, over loopback."""
    from app.server import start_server

    db = tmp_path / "spec-only.sqlite3"
    handle = start_server(WORKSPACE_BASIC, db, extensions=False)
    try:
        yield LiveServer(handle, WORKSPACE_BASIC, db, False, SPEC_ONLY_TOKENS)
    finally:
        handle.stop()


@pytest.fixture
def bob(live_server: LiveServer) -> Iterator[TaskdeskClient]:
    """A second operator saving through their own client while Ann works in the window."""
    with TaskdeskClient(live_server.url, live_server.token("bob")) as client:
        yield client


@pytest.fixture
def window(qtbot, make_window: WindowFactory, live_server: LiveServer) -> MainWindow:
    """Ann's window on the live server, with Scout (the first agent by guild) open."""
    win = make_window()
    sign_in(qtbot, win, live_server.url, live_server.token("ann"))
    return win
