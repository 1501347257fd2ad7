"""The status line never says what a later event made untrue: "Connecting to …" after the
connect failed, "Saved as v6." once a later save met a conflict, an error after its box was
read and closed."""

from __future__ import annotations

import socket

from PySide6.QtWidgets import QMessageBox

from app.client import TaskdeskClient
from tests.live_server import LiveServer
from tests.window_steps import LOAD_TIMEOUT_MS, open_agent, saved, sign_in, type_at_end
from widgets.dialogs.connect import ConnectRequest
from widgets.window.main_window import MainWindow


def _status(window: MainWindow) -> str:
    return window.statusBar().currentMessage()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_connecting_goes_when_the_connect_fails(qtbot, make_window) -> None:
    """The Connect dialog says why in its own line and stays; the status line must not go
    on saying "Connecting to …"."""
    window = make_window()
    window.actions_.connect_server.trigger()
    qtbot.waitUntil(lambda: window.connect_dialog is not None, timeout=LOAD_TIMEOUT_MS)
    dialog = window.connect_dialog
    assert dialog is not None
    qtbot.keyClicks(dialog.url_edit, f"http://127.0.0.1:{_closed_port()}")
    qtbot.keyClicks(dialog.token_edit, "ann-secret-token")
    dialog.connect_button.click()
    assert _status(window).startswith("Connecting to")
    qtbot.waitUntil(lambda: dialog.error_label.isVisible(), timeout=LOAD_TIMEOUT_MS)
    assert not _status(window).startswith("Connecting to")


def test_an_error_goes_from_the_status_line_when_its_box_is_closed(qtbot, make_window) -> None:
    window = make_window()
    window.connect_to(
        ConnectRequest(f"http://127.0.0.1:{_closed_port()}", "x" * 12, remember=False)
    )
    qtbot.waitUntil(lambda: window.messages.error_box is not None, timeout=LOAD_TIMEOUT_MS)
    box = window.messages.error_box
    assert box is not None and _status(window) == box.text()
    box.button(QMessageBox.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: window.messages.error_box is None, timeout=LOAD_TIMEOUT_MS)
    assert _status(window) == ""


def test_saved_as_goes_when_the_next_save_meets_a_conflict(
    qtbot, make_window, live_server: LiveServer
) -> None:
    window = make_window()
    sign_in(qtbot, window, live_server.url, live_server.token("ann"))
    open_agent(qtbot, window, "a_writer")
    type_at_end(qtbot, window, " First rule.")
    window.actions_.save.trigger()
    qtbot.waitUntil(lambda: saved(window), timeout=LOAD_TIMEOUT_MS)
    assert _status(window).startswith("Saved as v")
    with TaskdeskClient(live_server.url, live_server.token("bob")) as bob:
        live = bob.get_task("a_writer")
        bob.put_task("a_writer", live.content + "Bob's rule.\n", live.version)
    type_at_end(qtbot, window, " Second rule.")
    window.actions_.save.trigger()
    banner = window.task_tab.conflict_banner
    qtbot.waitUntil(banner.isVisible, timeout=LOAD_TIMEOUT_MS)
    assert "Saved as" not in _status(window)
