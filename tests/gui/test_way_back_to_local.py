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
