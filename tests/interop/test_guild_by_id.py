"""A server that lists no agents: the guild given when opening one by id gets embeds checked."""

from __future__ import annotations

from app.connect.server_features import UNCHECKED_EMBEDS
from tests.interop.steps import connect
from tests.spec_server import METHODS, SpecServer
from tests.window_steps import LOAD_TIMEOUT_MS
from widgets.dialogs.connect import ConnectRequest
from widgets.window.main_window import MainWindow


def open_by_id(qtbot, window: MainWindow, agent_id: str, guild_id: str) -> None:
    with qtbot.waitSignal(window.agent_opened, timeout=LOAD_TIMEOUT_MS):
        window.sidebar.open_by_id_button.click()
        dialog = window.sidebar.open_by_id_dialog
        assert dialog is not None
        qtbot.keyClicks(dialog.id_edit, agent_id)
        qtbot.keyClicks(dialog.guild_edit, guild_id)
        dialog.open_button.click()


def test_without_a_guild_the_status_bar_says_embeds_are_unchecked_not_missing(
    qtbot, make_window, spec_server: SpecServer
) -> None:
    window: MainWindow = make_window()
    connect(qtbot, window, spec_server.url)
    text = window.features_label.text()
    assert UNCHECKED_EMBEDS in text and "embed check" not in text, text
    assert not spec_server.seen("GET", "/embed-status")


def test_the_guild_given_is_asked_about_and_remembered_for_the_server(
    qtbot, make_window, spec_server: SpecServer
) -> None:
    window: MainWindow = make_window()
    connect(qtbot, window, spec_server.url)
    open_by_id(qtbot, window, "a_scout", "guild_ops")
    tab = window.task_tab
    # The server says Scout's guild can't read the research guild's methods note.
    qtbot.waitUntil(lambda: tab.unreachable_banner.isVisible(), timeout=LOAD_TIMEOUT_MS)
    assert any(line.startswith(METHODS) for line in tab.unreachable_banner.lines())
    assert spec_server.seen("GET", "/api/guilds/guild_ops/embed-status")
    assert UNCHECKED_EMBEDS not in window.features_label.text()
    window.runner.wait_idle()  # the guild is remembered (a settings write)

    again: MainWindow = make_window()
    with qtbot.waitSignal(again.agent_opened, timeout=LOAD_TIMEOUT_MS):
        again.connect_to(ConnectRequest(spec_server.url, "ann-secret", remember=False))
    assert again.connection is not None
    assert again.connection.guild_ids() == ["guild_ops"]
    qtbot.waitUntil(lambda: again.task_tab.unreachable_banner.isVisible(), timeout=LOAD_TIMEOUT_MS)
