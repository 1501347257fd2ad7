"""Versions end to end: restore by change, two versions compared, a version and my text."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.client import TaskdeskClient
from tests.window_steps import open_agent, said
from widgets.window.main_window import MainWindow
from widgets.window.messages import Severity

TIMEOUT = 10_000
AGENT = "a_writer"
OLD = "# Writer\n\nBe brief.\n\nSign every reply.\n\nNo jargon.\n"
NEW = "# Writer (house)\n\nBe brief.\n\nSign every reply.\n\nNo jargon at all.\n"


def _compare_old(qtbot, window: MainWindow, bob: TaskdeskClient) -> int:
    """Bob saves OLD then NEW; Ann opens Versions and compares OLD with live."""
    live = bob.get_task(AGENT)
    old = bob.put_task(AGENT, OLD, live.version)
    bob.put_task(AGENT, NEW, old.version)
    open_agent(qtbot, window, AGENT)
    qtbot.waitUntil(lambda: window.task_tab.editor.text() == NEW, timeout=TIMEOUT)
    window.actions_.versions.trigger()
    panel = window.task_tab.versions
    panel.select_version(old.version)
    panel.compare_button.click()
    qtbot.waitUntil(lambda: panel.diff_view.model.change_count == 2, timeout=TIMEOUT)
    assert panel.diff_view.take_button.isVisible()
    assert panel.diff_view.take_button.text() == f"Take this change from v{old.version}"
    return old.version


def test_one_change_comes_back_as_an_unsaved_edit(qtbot, window: MainWindow, bob) -> None:
    _compare_old(qtbot, window, bob)
    view = window.task_tab.versions.diff_view
    assert not view.take_button.isEnabled()  # no change chosen yet
    view.go_to_change(1)
    view.take_button.click()
    expected = NEW.replace("No jargon at all.", "No jargon.")
    qtbot.waitUntil(lambda: window.task_tab.editor.text() == expected, timeout=TIMEOUT)
    assert window.task_tab.has_unsaved()
    assert bob.get_task(AGENT).content == NEW  # nothing published
    view.go_to_change(0)  # and another one, on top
    view.take_button.click()
    qtbot.waitUntil(lambda: window.task_tab.editor.text() == OLD, timeout=TIMEOUT)


def test_unsaved_edits_of_the_same_lines_keep_it_out(qtbot, window: MainWindow, bob) -> None:
    _compare_old(qtbot, window, bob)
    editor = window.task_tab.editor
    editor.setPlainText(NEW.replace("No jargon at all.", "No jargon, ever."))
    mine = editor.text()
    view = window.task_tab.versions.diff_view
    view.go_to_change(1)
    view.take_button.click()
    qtbot.waitUntil(
        lambda: any("changes these lines too" in t for t in said(window, Severity.WARNING)),
        timeout=TIMEOUT,
    )
    assert editor.text() == mine


def _click_row(qtbot, window: MainWindow, row: int, ctrl: bool = False) -> None:
    view = window.task_tab.versions.list_view
    rect = view.visualRect(view.model().index(row, 0))
    modifier = Qt.KeyboardModifier.ControlModifier if ctrl else Qt.KeyboardModifier.NoModifier
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center())


def test_two_versions_picked_together_are_compared(qtbot, window: MainWindow, bob) -> None:
    old_version = _compare_old(qtbot, window, bob)
    panel = window.task_tab.versions
    live_row = panel.model.row_of_version(old_version + 1)
    old_row = panel.model.row_of_version(old_version)
    assert live_row is not None and old_row is not None
    before_row = old_row + 1  # the version before OLD: the agent's seeded Task
    _click_row(qtbot, window, old_row)
    _click_row(qtbot, window, before_row, ctrl=True)
    view = panel.diff_view
    before = bob.get_task(AGENT).revisions[before_row - 1]  # row 0 is the live version
    qtbot.waitUntil(lambda: view.new_text == OLD, timeout=TIMEOUT)
    assert view.old_text == before.content  # the older of the two on the left
    assert view.old_title.text() == f"v{old_version - 1}"
    assert view.new_title.text() == f"v{old_version}"
    assert not view.take_button.isVisible()  # taking is for Compare with live
    assert not panel.restore_button.isEnabled()  # restore is of one version


def test_a_version_compared_with_my_unsaved_text(qtbot, window: MainWindow, bob) -> None:
    _compare_old(qtbot, window, bob)
    editor = window.task_tab.editor
    editor.setPlainText(NEW + "My new rule.\n")
    panel = window.task_tab.versions
    panel.mine_button.click()
    view = panel.diff_view
    qtbot.waitUntil(lambda: view.new_text == NEW + "My new rule.\n", timeout=TIMEOUT)
    assert view.old_text == OLD
    assert view.new_title.text() == "My text (unsaved)"
    qtbot.waitUntil(lambda: view.model.change_count == 2, timeout=TIMEOUT)
