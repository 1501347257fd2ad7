"""LiveFeed against a real server: saves and presence as typed signals, its own presence
left out, a dropped stream resumed with Last-Event-ID, presence posted while a Task is open;
and the header's words."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.client import TaskdeskClient
from app.desk.live_feed import Colleague, LiveFeed, LiveMode, presence_text
from app.desk.runner import Runner
from tests.live_server import LiveServer
from tests.server.event_stream import Subscriber
from tests.server.http_calls import call, put_task

WAIT_MS = 5_000


def ann_feed(
    live_server: LiveServer, client: TaskdeskClient, runner: Runner, **kw: Any
) -> LiveFeed:
    return LiveFeed(
        url=live_server.url,
        token=live_server.token("ann"),
        me_id="u_ann",
        client=client,
        runner=runner,
        **kw,
    )


@pytest.fixture
def feed(qtbot: Any, live_server: LiveServer) -> Iterator[LiveFeed]:
    runner = Runner()
    client = TaskdeskClient(live_server.url, live_server.token("ann"))
    made = ann_feed(live_server, client, runner, reconnect_pauses=(1.5,), presence_every_ms=200)
    made.start()
    qtbot.waitUntil(lambda: made.mode is LiveMode.LIVE, timeout=WAIT_MS)
    yield made
    made.stop()
    runner.shutdown(5_000)
    client.close()


def test_a_save_comes_as_task_saved(qtbot: Any, feed: LiveFeed, live_server: LiveServer) -> None:
    with qtbot.waitSignal(feed.task_saved, timeout=WAIT_MS) as saved:
        put_task(live_server, "a_writer", {"content": "Bob's."}, who="bob")
    agent_id, version, by_name = saved.args
    assert (agent_id, by_name) == ("a_writer", "Bob")
    assert version >= 2


def test_a_dropped_stream_resumes_after_the_last_event(
    qtbot: Any, feed: LiveFeed, live_server: LiveServer
) -> None:
    with qtbot.waitSignal(feed.task_saved, timeout=WAIT_MS):
        put_task(live_server, "a_writer", {"content": "before"})
    with qtbot.waitSignal(feed.mode_changed, timeout=WAIT_MS) as dropped:
        live_server.restart()  # same database, same port
    assert dropped.args == [LiveMode.RECONNECTING]
    # Saved while the feed waits its 1.5 s before reconnecting: only Last-Event-ID finds them.
    versions = [put_task(live_server, "a_writer", {"content": t}).json()["version"] for t in "ab"]
    got: list[int] = []
    feed.task_saved.connect(lambda _a, version, _b: got.append(version))
    qtbot.waitUntil(lambda: got == versions, timeout=WAIT_MS)
    assert feed.mode is LiveMode.LIVE


def test_presence_of_others_is_kept_and_ones_own_left_out(
    qtbot: Any, feed: LiveFeed, live_server: LiveServer
) -> None:
    watcher = Subscriber(live_server.url, live_server.token("bob"))
    try:
        feed.show_task("a_scout", editing=True)  # posted now, and again every 200 ms
        told = watcher.next_event("presence")
        assert (told.data["person_id"], told.data["editing"]) == ("u_ann", True)
        with qtbot.waitSignal(feed.presence_changed, timeout=WAIT_MS) as changed:
            call(live_server, "POST", "/api/presence", "bob", json={"agent_id": "a_scout"})
        assert changed.args == ["a_scout"]
        (bob,) = feed.colleagues("a_scout")  # Ann's own presence is not among them
        assert (bob.person_id, bob.name, bob.editing) == ("u_bob", "Bob", False)
        assert feed.edited_by_others() == set()
        with qtbot.waitSignal(feed.presence_changed, timeout=WAIT_MS):
            call(
                live_server,
                "POST",
                "/api/presence",
                "bob",
                json={"agent_id": "a_scout", "editing": True},
            )
        assert feed.edited_by_others() == {"a_scout"}
    finally:
        watcher.close()


def test_the_header_says_who_is_editing_and_since_when() -> None:
    now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    bo = Colleague("u_bo", "Bo", True, now - timedelta(minutes=2, seconds=10))
    cy = Colleague("u_cy", "Cy", False, now - timedelta(seconds=5))
    assert presence_text([], now) == ""
    assert presence_text([bo], now) == "Bo is editing this Task (since 2 min)"
    assert presence_text([cy], now) == "Cy has this Task open (since a moment ago)"
    assert presence_text([bo, cy], now) == (
        "Bo is editing this Task (since 2 min), and 1 more person here"
    )
    long_ago = Colleague("u_bo", "Bo", True, now - timedelta(hours=3))
    assert presence_text([long_ago], now) == "Bo is editing this Task (since 3 h)"


def _live_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "taskdesk-live" and t.is_alive()]


def test_a_feed_stopped_at_any_moment_ends_its_thread_and_emits_nothing_more(
    qtbot: Any, live_server: LiveServer
) -> None:
    """A window closed while its stream is opening: the thread must not open a stream after
    stop (it would wait 40 s on it) nor emit into the feed the window then deletes."""
    runner = Runner()
    client = TaskdeskClient(live_server.url, live_server.token("ann"))
    try:
        for attempt in range(30):
            made = ann_feed(live_server, client, runner)
            made.start()
            time.sleep(attempt * 0.0007)  # stop at every stage of the stream's opening
            made.stop()
            made.deleteLater()
        qtbot.waitUntil(lambda: not _live_threads(), timeout=WAIT_MS)
    finally:
        runner.shutdown(5_000)
        client.close()
