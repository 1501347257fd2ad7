"""GUI fixtures: the real MainWindow signed in to a real reference server over loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live_server import LiveServer, live_server, server_factory, workspace_basic
from widgets.dialogs.connect import ConnectRequest
from widgets.window.main_window import MainWindow

__all__ = ["live_server", "server_factory", "workspace_basic"]

LOAD_TIMEOUT_MS = 10_000


@pytest.fixture(autouse=True)
def fresh_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Fresh settings, store and logs per test; never the operator's keyring or token."""
    home = tmp_path / "home"
    monkeypatch.setenv("TASKDESK_HOME", str(home))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    monkeypatch.delenv("TASKDESK_TOKEN", raising=False)
    return home


def close_window(window: MainWindow) -> None:
    window._closing_confirmed = True  # the test is over: no leaving questions
    window.close()
    window.shutdown()
    if window.connection is not None and window.connection.store is not None:
        window.connection.store.close()


@pytest.fixture
def make_window(qtbot, fresh_home: Path) -> Iterator[object]:
    windows: list[MainWindow] = []

    def make() -> MainWindow:
        window = MainWindow(data_dir=fresh_home / "data")
        qtbot.addWidget(window, before_close_func=close_window)
        window.show()
        windows.append(window)
        return window

    yield make


@pytest.fixture
def window(qtbot, make_window, live_server: LiveServer) -> MainWindow:
    """Ann's window on the live server, with Scout (the first agent by guild) open."""
    win: MainWindow = make_window()
    with qtbot.waitSignal(win.agent_opened, timeout=LOAD_TIMEOUT_MS):
        win.connect_to(ConnectRequest(live_server.url, live_server.token("ann"), remember=False))
    return win
