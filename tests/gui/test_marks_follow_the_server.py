"""A note deleted elsewhere while the app is open: the sidebar, header and banner marks and
References follow the server, on the poll, when asked (a live event) — and agree."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QWidget

from app.client import TaskdeskClient
from tests.live_server import LiveServer
from tests.window_steps import open_agent
from widgets.task.task_tab import TaskTab
from widgets.window.main_window import MainWindow

TIMEOUT = 10_000
HOP_2 = "org/o_acme/escalation.md"  # Writer → style-guide.md → escalation.md


def references_shown(qtbot, tab: TaskTab) -> None:
    tab.insight.commands.panel_actions["references"].setChecked(True)
    summary = tab.insight.panel.references.summary_label
    qtbot.waitUntil(lambda: "every embed reaches its file" in summary.text(), timeout=TIMEOUT)


def all_marks_say_unreachable(window: MainWindow, path: str) -> bool:
    tab = window.task_tab
    summary = tab.insight.panel.references.summary_label.text()
    return (
        any(b.path == path for b in window.agent_model.broken_embeds("a_writer"))
        and tab.header.is_marked_unreachable()
        and tab.unreachable_banner.isVisible()
        and any(line.startswith(path) for line in tab.unreachable_banner.lines())
        and "1 unreachable" in summary
    )


def delete_elsewhere(live_server: LiveServer, path: str) -> None:
    with TaskdeskClient(live_server.url, live_server.token("bob")) as bob:
        bob.delete_note(path)


def test_a_live_event_subscriber_makes_every_mark_follow_at_once(
    qtbot, window: MainWindow, live_server: LiveServer
) -> None:
    open_agent(qtbot, window, "a_writer")
    tab = window.task_tab
    references_shown(qtbot, tab)
    assert not tab.unreachable_banner.isVisible() and not tab.header.is_marked_unreachable()
    delete_elsewhere(live_server, HOP_2)
    window.follow_server_changes()  # what a live event about the note calls
    qtbot.waitUntil(lambda: all_marks_say_unreachable(window, HOP_2), timeout=TIMEOUT)


def test_the_poll_finds_the_deleted_note_and_an_unchanged_status_costs_no_body(
    qtbot, make_window, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.window_steps import sign_in

    monkeypatch.setattr(TaskTab, "poll_interval_ms", 300)
    window: MainWindow = make_window()
    sign_in(qtbot, window, live_server.url, live_server.token("ann"))
    open_agent(qtbot, window, "a_writer")
    tab = window.task_tab
    references_shown(qtbot, tab)
    client = window.connection.client
    with qtbot.waitSignal(tab.server_polled, timeout=TIMEOUT):
        pass  # a poll with nothing changed: the status came back from its ETag
    assert client._statuses, "the embed status is asked again with its ETag"
    delete_elsewhere(live_server, HOP_2)
    qtbot.waitUntil(lambda: all_marks_say_unreachable(window, HOP_2), timeout=TIMEOUT)


def test_the_embed_status_answers_304_when_nothing_changed(live_server: LiveServer) -> None:
    import requests

    url = f"{live_server.url}/api/org/embed-status"
    first = requests.get(url, headers=live_server.auth("ann"), timeout=5)
    etag = first.headers["ETag"]
    again = requests.get(url, headers={**live_server.auth("ann"), "If-None-Match": etag}, timeout=5)
    assert again.status_code == 304 and again.content == b""
    delete_elsewhere(live_server, HOP_2)
    changed = requests.get(
        url, headers={**live_server.auth("ann"), "If-None-Match": etag}, timeout=5
    )
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert HOP_2 in changed.text


def test_the_window_coming_forward_asks_again(
    qtbot, window: MainWindow, live_server: LiveServer
) -> None:
    open_agent(qtbot, window, "a_writer")
    tab = window.task_tab
    references_shown(qtbot, tab)
    window._follow_pause.stop()  # the sign-in's own activation asked a moment ago
    other = QWidget()
    other.show()
    other.activateWindow()
    qtbot.waitUntil(lambda: not window.isActiveWindow(), timeout=TIMEOUT)
    delete_elsewhere(live_server, HOP_2)  # while the operator is in another window
    window.activateWindow()
    qtbot.waitUntil(lambda: all_marks_say_unreachable(window, HOP_2), timeout=TIMEOUT)
    other.close()
