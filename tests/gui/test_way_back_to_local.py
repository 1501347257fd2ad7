"""After another server, the local workspace is always one step away, and Cancel lands there."""

from __future__ import annotations

from app.connect.paths import settings_path
from app.connect.settings import Settings, load_settings, save_settings
from tests.live_server import LiveServer
from widgets.window.main_window import MainWindow

TIMEOUT = 20_000


def test_cancel_at_the_token_question_opens_the_local_workspace(
    qtbot, make_window, live_server: LiveServer
) -> None:
    save_settings(Settings(last_server_url=live_server.url), settings_path())
    window: MainWindow = make_window()
    window.start(None)  # the remembered server, and no token for it anywhere
    qtbot.waitUntil(lambda: window.connect_dialog is not None, timeout=TIMEOUT)
    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
        window.connect_dialog.cancel_button.click()
    assert window.connection is not None and window.connection.local
    assert load_settings(settings_path()).settings.last_server_url is None  # next start: here


def test_file_offers_the_local_workspace(qtbot, window: MainWindow) -> None:
    assert window.connection is not None and not window.connection.local
    action = window.actions_.open_local
    assert action in window.menuBar().actions()[0].menu().actions()
    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
        action.trigger()
    assert window.connection.local


def test_without_a_keyring_the_token_can_be_kept_in_a_private_file(
    qtbot, make_window, live_server: LiveServer
) -> None:
    from app.connect.paths import token_file_path

    window: MainWindow = make_window()
    window.actions_.connect_server.trigger()
    qtbot.waitUntil(lambda: window.connect_dialog is not None, timeout=TIMEOUT)
    dialog = window.connect_dialog
    assert "file only you can read" in dialog.remember_box.text()
    qtbot.keyClicks(dialog.url_edit, live_server.url)
    qtbot.keyClicks(dialog.token_edit, live_server.token("ann"))
    dialog.remember_box.setChecked(True)
    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
        dialog.connect_button.click()
    path = token_file_path()
    assert path.is_file() and live_server.token("ann") in path.read_text(encoding="utf-8")
    assert path.stat().st_mode & 0o077 == 0  # readable by the operator only


def test_file_lists_recent_servers_and_opens_one(
    qtbot, window: MainWindow, live_server: LiveServer
) -> None:
    qtbot.waitUntil(lambda: live_server.url in window.recent_servers.urls(), timeout=TIMEOUT)
    action = next(
        a for a in window.actions_.recent_menu.actions() if a.toolTip() == live_server.url
    )
    action.trigger()  # no token kept anywhere: the Connect dialog asks, filled in
    qtbot.waitUntil(lambda: window.connect_dialog is not None, timeout=TIMEOUT)
    assert window.connect_dialog.url_edit.text() == live_server.url
