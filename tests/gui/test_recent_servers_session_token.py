"""A token kept "for this session only" is kept for the session: File › Recent servers opens
the server again without asking for it, also after the local workspace was opened between."""

from __future__ import annotations

from tests.live_server import LiveServer
from tests.window_steps import LOAD_TIMEOUT_MS
from widgets.window.main_window import MainWindow


def _recent_action(window: MainWindow, url: str):  # type: ignore[no-untyped-def]
    menu = window.actions_.recent_menu
    return next(a for a in menu.actions() if a.toolTip() == url)


def test_recent_servers_reopens_with_the_sessions_token(
    qtbot, make_window, live_server: LiveServer
) -> None:
    window: MainWindow = make_window()
    window.actions_.connect_server.trigger()
    qtbot.waitUntil(lambda: window.connect_dialog is not None, timeout=LOAD_TIMEOUT_MS)
    dialog = window.connect_dialog
    assert dialog is not None
    qtbot.keyClicks(dialog.url_edit, live_server.url)
    qtbot.keyClicks(dialog.token_edit, live_server.token("ann"))
    assert not dialog.remember_box.isChecked()  # kept for this session only
    with qtbot.waitSignal(window.agent_opened, timeout=LOAD_TIMEOUT_MS):
        dialog.connect_button.click()
    qtbot.waitUntil(
        lambda: live_server.url in window.recent_servers.urls(), timeout=LOAD_TIMEOUT_MS
    )
    with qtbot.waitSignal(window.agent_opened, timeout=20_000):
        window.actions_.open_local.trigger()
    assert window.connection is not None and window.connection.local

    with qtbot.waitSignal(window.connected, timeout=LOAD_TIMEOUT_MS):
        _recent_action(window, live_server.url).trigger()
    assert window.connect_dialog is None  # not asked for the token again
    assert window.connection is not None and window.connection.url == live_server.url
