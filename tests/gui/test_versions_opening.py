"""Versions opens on the newest earlier version; Restore is off for a version equal to live."""

from __future__ import annotations

from app.client import TaskdeskClient
from tests.live_server import LiveServer
from tests.window_steps import open_agent
from widgets.window.main_window import MainWindow

TIMEOUT = 10_000


def test_versions_open_on_the_newest_earlier_version(qtbot, window: MainWindow) -> None:
    live = window.task_tab.state.live
    assert live is not None and live.revisions  # Scout has history
    window.actions_.versions.trigger()
    selected = window.task_tab.versions.selected()
    assert selected is not None and not selected.live
    assert selected.version == max(r.version for r in live.revisions)
    assert window.task_tab.versions.restore_button.isEnabled()


def test_restore_is_off_for_a_version_with_the_live_text(
    qtbot, window: MainWindow, live_server: LiveServer
) -> None:
    with TaskdeskClient(live_server.url, live_server.token("bob")) as bob:
        doc = bob.get_task("a_writer")
        same = doc.content
        doc = bob.put_task("a_writer", same + "\nA passing rule.\n", doc.version)
        doc = bob.put_task("a_writer", same, doc.version)  # back to the earlier text
    open_agent(qtbot, window, "a_writer")
    tab = window.task_tab
    qtbot.waitUntil(lambda: tab.state.live is not None and tab.state.live.version == doc.version)
    window.actions_.versions.trigger()
    panel = tab.versions
    panel.select_version(doc.version - 2)  # the seeded text, which live equals again
    assert panel.selected().content == doc.content
    assert not panel.restore_button.isEnabled()
    assert "same" in panel.restore_button.toolTip().lower()
    panel.select_version(doc.version - 1)
    assert panel.restore_button.isEnabled()


def test_the_hidden_versions_panel_shows_nothing_until_it_is_shown(
    qtbot, window: MainWindow
) -> None:
    """Every Task opened selects its newest earlier version; while View › Versions is off,
    showing it (its text, or a diff on the runner) waits for the panel to be shown."""
    tab = window.task_tab
    panel = tab.versions
    asked: list[int] = []
    panel.compare_requested.connect(lambda version, _old, _live: asked.append(version))
    open_agent(qtbot, window, "a_writer")
    open_agent(qtbot, window, "a_scout")
    assert panel.isHidden() and panel.text_view.toPlainText() == "" and asked == []
    window.actions_.versions.trigger()
    selected = panel.selected()
    assert selected is not None and not selected.live
    assert panel.text_view.toPlainText() == selected.content  # shown with the panel
    panel.compare_button.click()
    assert asked == [selected.version]


def test_after_a_save_versions_open_on_the_version_it_replaced(qtbot, window: MainWindow) -> None:
    """The opening default follows the Task: after a save (or the server's copy arriving after
    the cached one) it is the new newest earlier version, not the one before it."""
    from tests.window_steps import saved, type_at_end

    tab = window.task_tab
    live = tab.state.live
    assert live is not None and live.revisions
    type_at_end(qtbot, window, " One more rule.")
    window.actions_.save.trigger()
    qtbot.waitUntil(lambda: saved(window), timeout=TIMEOUT)
    assert tab.state.live is not None and tab.state.live.version == live.version + 1
    window.actions_.versions.trigger()
    selected = tab.versions.selected()
    assert selected is not None and selected.version == live.version  # the one just replaced


def test_a_version_picked_by_hand_stays_picked_through_a_save(qtbot, window: MainWindow) -> None:
    from tests.window_steps import saved, type_at_end

    tab = window.task_tab
    live = tab.state.live
    assert live is not None
    oldest = min(r.version for r in live.revisions)
    window.actions_.versions.trigger()
    tab.versions.select_version(oldest)
    window.actions_.edit.trigger()
    type_at_end(qtbot, window, " One more rule.")
    window.actions_.save.trigger()
    qtbot.waitUntil(lambda: saved(window), timeout=TIMEOUT)
    selected = tab.versions.selected()
    assert selected is not None and selected.version == oldest
