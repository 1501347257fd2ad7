"""Connecting to another server: the dialog, a refused token, and what is remembered."""

from __future__ import annotations

from pathlib import Path

from tests.live_server import LiveServer
from widgets.window.main_window import MainWindow

TIMEOUT = 10_000


def test_connect_dialog_refused_token_then_signed_in_and_url_remembered(
    qtbot, make_window, live_server: LiveServer, fresh_home: Path
) -> None:
    window: MainWindow = make_window()
    window.actions_.connect_server.trigger()
    qtbot.waitUntil(lambda: window.connect_dialog is not None, timeout=TIMEOUT)
    dialog = window.connect_dialog
    assert not dialog.remember_box.isChecked()  # no keyring here: session only, unless asked
    qtbot.keyClicks(dialog.url_edit, live_server.url)
    qtbot.keyClicks(dialog.token_edit, "not-a-token")
    dialog.connect_button.click()
    qtbot.waitUntil(lambda: dialog.error_label.isVisible(), timeout=TIMEOUT)
    assert "token" in dialog.error_label.text().lower()
    assert "not-a-token" not in dialog.error_label.text()
    assert window.connection is None

    dialog.token_edit.clear()
    qtbot.keyClicks(dialog.token_edit, live_server.token("ann"))
    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
        dialog.connect_button.click()
    assert window.connection.url == live_server.url and not window.connection.local
    settings = (fresh_home / "config" / "settings.json").read_text(encoding="utf-8")
    assert live_server.url in settings
    assert live_server.token("ann") not in settings  # settings keep the URL only


def test_remembered_server_opens_at_next_start_with_the_session_token(
    qtbot, make_window, live_server: LiveServer, monkeypatch
) -> None:
    """A remembered server and TASKDESK_TOKEN: straight in, no dialog, no local server."""
    from app.connect.paths import settings_path
    from app.connect.settings import Settings, save_settings

    save_settings(Settings(last_server_url=live_server.url), settings_path())
    monkeypatch.setenv("TASKDESK_TOKEN", live_server.token("ann"))
    window: MainWindow = make_window()
    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
        window.start(None)
    assert window.embedded is None
    assert window.connection.url == live_server.url


def test_unreachable_server_says_so(qtbot, make_window, monkeypatch) -> None:
    monkeypatch.setenv("TASKDESK_TOKEN", "ann-secret")
    window: MainWindow = make_window()
    window.start("http://127.0.0.1:9")  # nothing listens on the discard port
    qtbot.waitUntil(lambda: window.messages.error_box is not None, timeout=TIMEOUT)
    text = window.messages.error_box.text()
    assert "127.0.0.1:9" in text or "reach" in text.lower(), text
    assert "Traceback" not in text and "ann-secret" not in text
    assert window.connection is None


def test_the_last_agent_opens_again_at_the_next_start(
    qtbot, make_window, live_server: LiveServer
) -> None:
    from widgets.dialogs.connect import ConnectRequest

    first: MainWindow = make_window()
    request = ConnectRequest(live_server.url, live_server.token("ann"), False)
    with qtbot.waitSignal(first.agent_opened, timeout=TIMEOUT):
        first.connect_to(request)
    with qtbot.waitSignal(first.agent_opened, timeout=TIMEOUT):
        first.on_agent_chosen("a_analyst")
    first.runner.wait_idle()
    second: MainWindow = make_window()
    with qtbot.waitSignal(second.agent_opened, timeout=TIMEOUT) as opened:
        second.connect_to(request)
    assert opened.args == ["a_analyst"]


def test_a_token_that_could_not_be_kept_is_said_so(
    qtbot, make_window, live_server: LiveServer, fresh_home: Path
) -> None:
    """Keep the token is ticked, and its file can't be written: the operator is told it
    lasts this session only, and the warning is still in view once the agent is open."""
    from app.core.user_message import Severity

    (fresh_home / "config" / "tokens.json").mkdir(parents=True)  # a folder where the file goes
    window: MainWindow = make_window()
    window.actions_.connect_server.trigger()
    qtbot.waitUntil(lambda: window.connect_dialog is not None, timeout=TIMEOUT)
    dialog = window.connect_dialog
    dialog.remember_box.setChecked(True)
    qtbot.keyClicks(dialog.url_edit, live_server.url)
    qtbot.keyClicks(dialog.token_edit, live_server.token("ann"))
    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
        dialog.connect_button.click()
    warned = [t for t, level in window.messages.history if level is Severity.WARNING]
    assert any("session only" in t and "tokens.json" in t for t in warned), warned
    bar = window.task_tab.message_bar
    qtbot.waitUntil(lambda: bar.isVisible() and "session only" in bar.text(), timeout=TIMEOUT)
