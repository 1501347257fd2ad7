"""What the operator does in the real main window, shared by the GUI and window fault tests.

The fixtures here are imported by the conftest of each folder that drives the window
(``fresh_home`` is autouse there): every window test gets fresh settings, store and logs,
and never touches the operator's keyring or token.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QTextCursor

from widgets.dialogs.connect import ConnectRequest
from widgets.task.task_tab import TaskTab
from widgets.window.main_window import MainWindow
from widgets.window.messages import Severity

LOAD_TIMEOUT_MS = 10_000  # a wait's bound, not a speed check: it only ends a hung test

WindowFactory = Callable[[], MainWindow]


@pytest.fixture(autouse=True)
def fresh_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Fresh settings, store and logs per test; never the operator's keyring or token."""
    home = tmp_path / "home"
    monkeypatch.setenv("TASKDESK_HOME", str(home))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    monkeypatch.delenv("TASKDESK_TOKEN", raising=False)
    return home


def close_window(window: MainWindow) -> None:
    """The test is over: close without the leaving questions, stop the background work."""
    window._closing_confirmed = True
    window.close()
    window.shutdown()
    if window.connection is not None and window.connection.store is not None:
        window.connection.store.close()


@pytest.fixture
def make_window(qtbot, fresh_home: Path) -> Iterator[WindowFactory]:
    """Builds unconnected main windows, each closed when the test ends."""

    def make() -> MainWindow:
        window = MainWindow(data_dir=fresh_home / "data")
        qtbot.addWidget(window, before_close_func=close_window)
        window.show()
        return window

    yield make


def sign_in(qtbot, window: MainWindow, url: str, token: str, *, first_agent: bool = True) -> None:
    """Connect as the owner of ``token``; wait for the first agent's Task on screen, or
    (``first_agent=False``, a server that lists no agents) for the agent list."""
    signal = window.agent_opened if first_agent else window.connected
    with qtbot.waitSignal(signal, timeout=LOAD_TIMEOUT_MS):
        window.connect_to(ConnectRequest(url, token, remember=False))


def open_agent(qtbot, window: MainWindow, agent_id: str) -> None:
    """Choose the agent in the sidebar and wait until its Task is on screen."""
    with qtbot.waitSignal(window.agent_opened, timeout=LOAD_TIMEOUT_MS):
        window.on_agent_chosen(agent_id)


def type_at_end(qtbot, window: MainWindow, text: str) -> str:
    """Switch to Edit and type ``text`` at the end of the Task; returns the editor's text.

    No newlines: keyClicks aborts Qt on one (send Return with keyClick instead).
    """
    assert "\n" not in text
    window.actions_.edit.trigger()
    editor = window.task_tab.editor
    editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(editor, text)
    return editor.text()


def keep_mine(qtbot, tab: TaskTab) -> None:
    """Keep mine on a conflict whose version has changes of theirs: it first shows what it
    throws away; confirm that."""
    tab.conflict_banner.keep_mine_button.click()
    flow = tab.conflict_flow
    qtbot.waitUntil(lambda: flow.keep_mine_dialog is not None, timeout=LOAD_TIMEOUT_MS)
    assert flow.keep_mine_dialog is not None
    flow.keep_mine_dialog.confirm_button.click()


def saved(window: MainWindow) -> bool:
    """The server has confirmed the editor's text and nothing is left to save."""
    state = window.task_tab.state
    return state.saved_text_confirmed and not state.dirty and not state.saving


def said(window: MainWindow, severity: Severity | None = None) -> list[str]:
    """Every message the window has shown (of ``severity``), oldest first."""
    return [t for t, s in window.messages.history if severity is None or s is severity]


def reopen_with_a_draft(qtbot, make_window: WindowFactory, url: str, token: str) -> MainWindow:
    """Type in a window and close it without saving or asking (the draft stays), then sign in
    again in a new window and wait until it offers the draft back."""
    first = make_window()
    sign_in(qtbot, first, url, token)
    type_at_end(qtbot, first, "Unsaved rule.")
    first._closing_confirmed = True
    first.close()
    first.shutdown()
    second = make_window()
    sign_in(qtbot, second, url, token)
    qtbot.waitUntil(second.task_tab.draft_banner.isVisible, timeout=LOAD_TIMEOUT_MS)
    return second
