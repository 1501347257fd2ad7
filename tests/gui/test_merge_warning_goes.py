""" "1 conflict of the merge is not resolved yet" goes once the conflict is resolved: not only
by its ×, and never through the save and a later conflict."""

from __future__ import annotations

from app.client import TaskdeskClient
from app.core.merge import Resolution
from tests.live_server import LiveServer
from tests.window_steps import LOAD_TIMEOUT_MS, open_agent, saved, sign_in, type_at_end
from widgets.window.main_window import MainWindow

AGENT = "a_writer"
NOT_RESOLVED = "not resolved yet"


def _conflict_on_the_last_line(qtbot, window: MainWindow, bob: TaskdeskClient) -> None:
    """Bob and Ann each add a different last line: a true conflict once merged."""
    live = bob.get_task(AGENT)
    bob.put_task(AGENT, live.content + "Bob's last rule.\n", live.version)
    type_at_end(qtbot, window, "Ann's last rule.")
    window.actions_.save.trigger()
    banner = window.task_tab.conflict_banner
    qtbot.waitUntil(banner.isVisible, timeout=LOAD_TIMEOUT_MS)
    banner.merge_button.click()
    flow = window.task_tab.merge_flow
    qtbot.waitUntil(lambda: flow.active, timeout=LOAD_TIMEOUT_MS)
    assert flow.marks.open_conflicts() == [0]


def test_the_open_conflicts_warning_goes_when_they_are_resolved(
    qtbot, make_window, live_server: LiveServer
) -> None:
    window = make_window()
    sign_in(qtbot, window, live_server.url, live_server.token("ann"))
    open_agent(qtbot, window, AGENT)
    bar = window.task_tab.message_bar
    with TaskdeskClient(live_server.url, live_server.token("bob")) as bob:
        _conflict_on_the_last_line(qtbot, window, bob)
        window.actions_.save.trigger()  # held back: the conflict is open
        assert bar.isVisible() and NOT_RESOLVED in bar.text()

        window.task_tab.banners.merge_banner.take_buttons[Resolution.MINE_THEN_THEIRS].click()
        assert not (bar.isVisible() and NOT_RESOLVED in bar.text())
        window.actions_.save.trigger()
        qtbot.waitUntil(lambda: saved(window), timeout=LOAD_TIMEOUT_MS)
        assert not (bar.isVisible() and NOT_RESOLVED in bar.text())

        # A later conflict starts with no word of the earlier one.
        _conflict_on_the_last_line(qtbot, window, bob)
        assert not (bar.isVisible() and NOT_RESOLVED in bar.text())


def test_compare_with_theirs_offers_merge(qtbot, make_window, live_server: LiveServer) -> None:
    window = make_window()
    sign_in(qtbot, window, live_server.url, live_server.token("ann"))
    open_agent(qtbot, window, AGENT)
    tab = window.task_tab
    with TaskdeskClient(live_server.url, live_server.token("bob")) as bob:
        live = bob.get_task(AGENT)
        bob.put_task(AGENT, "Bob's first rule.\n" + live.content, live.version)
    type_at_end(qtbot, window, "Ann's last rule.")
    window.actions_.save.trigger()
    qtbot.waitUntil(tab.conflict_banner.isVisible, timeout=LOAD_TIMEOUT_MS)
    tab.conflict_banner.compare_button.click()
    dialog = tab.conflict_flow.compare_dialog
    assert dialog is not None and dialog.merge_button.isDefault()
    dialog.merge_button.click()
    qtbot.waitUntil(lambda: tab.merge_flow.active, timeout=LOAD_TIMEOUT_MS)
    assert tab.conflict_flow.compare_dialog is None
    text = tab.editor.text()
    assert text.startswith("Bob's first rule.") and "Ann's last rule." in text
