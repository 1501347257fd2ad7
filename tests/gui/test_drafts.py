"""Edits left unsaved when the window went away are offered back at the next start."""

from __future__ import annotations

from tests.live_server import LiveServer
from tests.window_steps import close_window, sign_in, type_at_end
from widgets.window.main_window import MainWindow

TIMEOUT = 10_000


def open_window(qtbot, make_window, live_server: LiveServer) -> MainWindow:
    window: MainWindow = make_window()
    sign_in(qtbot, window, live_server.url, live_server.token("ann"))
    return window


def test_draft_is_offered_with_agent_version_and_recovered(
    qtbot, make_window, live_server: LiveServer
) -> None:
    first = open_window(qtbot, make_window, live_server)
    base_version = first.task_tab.state.base_version
    mine = type_at_end(qtbot, first, "Unsaved rule.")
    # The window goes without a save (as after a crash): the draft is what is left.
    close_window(first)

    second = open_window(qtbot, make_window, live_server)
    tab = second.task_tab
    qtbot.waitUntil(lambda: tab.draft_banner.isVisible(), timeout=TIMEOUT)
    text = tab.draft_banner.text()
    assert "Scout" in text and f"v{base_version}" in text
    assert tab.editor.text() != mine  # offered, not forced on the operator
    tab.draft_banner.recover_button.click()
    assert tab.editor.text() == mine
    assert tab.has_unsaved()
    assert not tab.draft_banner.isVisible()
