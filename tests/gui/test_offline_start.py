"""Starting with the server gone: the window opens on what was last seen there."""

from __future__ import annotations

from tests.live_server import LiveServer
from tests.window_steps import LOAD_TIMEOUT_MS, close_window
from widgets.dialogs.connect import ConnectRequest


def test_a_server_seen_before_opens_offline_with_the_cached_task(
    qtbot, make_window, live_server: LiveServer
) -> None:
    request = ConnectRequest(live_server.url, live_server.token("ann"), remember=False)
    first = make_window()
    with qtbot.waitSignal(first.agent_opened, timeout=LOAD_TIMEOUT_MS):
        first.connect_to(request)
    qtbot.waitUntil(lambda: first.task_tab.editor.text() != "", timeout=LOAD_TIMEOUT_MS)
    seen_text = first.task_tab.editor.text()
    seen_agents = first.agent_model.agent_ids()
    close_window(first)
    live_server.stop()

    again = make_window()
    with qtbot.waitSignal(again.agent_opened, timeout=LOAD_TIMEOUT_MS):
        again.connect_to(request)
    tab = again.task_tab
    qtbot.waitUntil(lambda: tab.editor.text() == seen_text, timeout=LOAD_TIMEOUT_MS)
    assert again.agent_model.agent_ids() == seen_agents
    qtbot.waitUntil(lambda: tab.offline_banner.isVisible(), timeout=LOAD_TIMEOUT_MS)
    assert again.connection is not None and again.connection.offline_as_of is not None


def test_a_server_never_seen_and_gone_says_so(qtbot, make_window, live_server: LiveServer) -> None:
    live_server.stop()
    window = make_window()
    errors: list[str] = []
    window.messages.shown.connect(lambda text, severity: errors.append(text))
    window.connect_to(ConnectRequest(live_server.url, live_server.token("ann"), remember=False))
    qtbot.waitUntil(lambda: any("cannot be reached" in e for e in errors), timeout=LOAD_TIMEOUT_MS)
    assert window.connection is None


def test_offline_the_marks_are_the_ones_last_seen(
    qtbot, make_window, live_server: LiveServer
) -> None:
    """The embed status is kept as the offline copy: opened with the server gone, the sidebar
    and the header still mark Scout's unreachable embeds as they were last seen."""
    request = ConnectRequest(live_server.url, live_server.token("ann"), remember=False)
    first = make_window()
    with qtbot.waitSignal(first.agent_opened, timeout=LOAD_TIMEOUT_MS):
        first.connect_to(request)
    qtbot.waitUntil(lambda: bool(first.agent_model.broken_embeds("a_scout")), timeout=10_000)
    seen = first.agent_model.broken_embeds("a_scout")
    first.runner.wait_idle()  # the copy is written on the disk lane
    close_window(first)
    live_server.stop()

    again = make_window()
    with qtbot.waitSignal(again.agent_opened, timeout=LOAD_TIMEOUT_MS):
        again.connect_to(request)
    qtbot.waitUntil(lambda: again.agent_model.broken_embeds("a_scout") == seen, timeout=10_000)
    assert again.connection is not None and again.connection.offline_as_of is not None
    assert again.task_tab.agent is not None and again.task_tab.agent.id == "a_scout"
    qtbot.waitUntil(lambda: again.task_tab.header.is_marked_unreachable(), timeout=10_000)
