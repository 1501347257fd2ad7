"""The conflict banner says which version the operator's edits are based on."""

from __future__ import annotations

from app.client import TaskdeskClient
from tests.live_server import LiveServer
from tests.window_steps import open_agent, type_at_end
from widgets.window.main_window import MainWindow

TIMEOUT = 10_000


def test_the_conflict_names_their_version_and_the_base_of_mine(
    qtbot, window: MainWindow, live_server: LiveServer
) -> None:
    open_agent(qtbot, window, "a_writer")
    with TaskdeskClient(live_server.url, live_server.token("bob")) as bob:
        base = bob.get_task("a_writer")
        bob.put_task("a_writer", base.content + "Bob's rule.\n", base.version)
    type_at_end(qtbot, window, "Ann's rule.")
    window.actions_.save.trigger()
    banner = window.task_tab.conflict_banner
    qtbot.waitUntil(lambda: banner.isVisible(), timeout=TIMEOUT)
    assert f"Bob saved v{base.version + 1}" in banner.text()
    assert f"based on v{base.version}" in banner.text()
