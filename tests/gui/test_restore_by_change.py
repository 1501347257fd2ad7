"""Restore by change, end to end: one change of an earlier version back into the editor."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.client import TaskdeskClient
from tests.live_server import LiveServer
from tests.window_steps import open_agent, said
from widgets.window.main_window import MainWindow
from widgets.window.messages import Severity

TIMEOUT = 10_000
AGENT = "a_writer"
OLD = "# Writer\n\nBe brief.\n\nSign every reply.\n\nNo jargon.\n"
NEW = "# Writer (house)\n\nBe brief.\n\nSign every reply.\n\nNo jargon at all.\n"


@pytest.fixture
def bob(live_server: LiveServer) -> Iterator[TaskdeskClient]:
    with TaskdeskClient(live_server.url, live_server.token("bob")) as client:
        yield client


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
