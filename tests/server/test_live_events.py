"""Live events and presence (EXTENSION): saves reach subscribers at once, a reconnect with
Last-Event-ID misses nothing, notes only for their readers, presence lapses, revoked tokens
end their stream."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from app.cli import main as cli_main
from tests.live_server import LiveServer
from tests.server.event_stream import CLOSED, Subscriber, parse_events
from tests.server.http_calls import ORG, call, get_task, put_task

BOTH_BACKENDS = True  # every test here runs on SQLite and on PostgreSQL (tests/live_server.py)

PRIVATE = f"{ORG}/private/board-minutes.md"  # only Mia (and operators) read it


@pytest.fixture
def subscribers() -> Iterator[list[Subscriber]]:
    opened: list[Subscriber] = []
    yield opened
    for subscriber in opened:
        subscriber.close()


def _subscribe(server: LiveServer, who: str, opened: list[Subscriber], **kw: int) -> Subscriber:
    subscriber = Subscriber(server.url, server.token(who), **kw)
    opened.append(subscriber)
    assert subscriber.status == 200
    assert subscriber.content_type.startswith("text/event-stream")
    return subscriber


def _backlog(server: LiveServer, who: str, after: int) -> list:  # type: ignore[type-arg]
    answer = call(server, "GET", f"/api/events?once=1&last_event_id={after}", who)
    assert answer.status_code == 200, answer.text
    return parse_events(answer.text)


def test_a_save_reaches_a_subscriber_at_once(
    live_server: LiveServer, subscribers: list[Subscriber]
) -> None:
    stream = _subscribe(live_server, "bob", subscribers)
    version = get_task(live_server, "a_writer")["version"]
    saved = put_task(live_server, "a_writer", {"content": "Live.", "expected_version": version})
    answered = time.monotonic()
    assert saved.status_code == 200
    event = stream.next_event("task_saved")
    assert event.data == {"agent_id": "a_writer", "version": version + 1, "by_name": "Ann"}
    assert event.id is not None
    assert event.received - answered < 1.0


def test_a_reconnect_with_last_event_id_misses_nothing(
    live_server: LiveServer, subscribers: list[Subscriber]
) -> None:
    stream = _subscribe(live_server, "ann", subscribers)
    put_task(live_server, "a_writer", {"content": "one"})
    first = stream.next_event("task_saved")
    stream.close()
    for text in ("two", "three", "four"):  # saved while nobody listens
        assert put_task(live_server, "a_writer", {"content": text}).status_code == 200
    again = _subscribe(live_server, "ann", subscribers, last_event_id=first.id or 0)
    versions = [again.next_event("task_saved").data["version"] for _ in range(3)]
    assert versions == [
        first.data["version"] + 1,
        first.data["version"] + 2,
        first.data["version"] + 3,
    ]
    # And the same backlog through ?once=1 (what a script or the tests read whole).
    backlog = [e.data["version"] for e in _backlog(live_server, "ann", first.id or 0)]
    assert backlog == versions


def test_a_note_saved_is_told_only_to_its_readers(live_server: LiveServer) -> None:
    start = max([0, *(e.id or 0 for e in _backlog(live_server, "ann", 0))])
    live_server.put_note(
        PRIVATE, text="New minutes.", access=[{"principal": "user:u_mia", "role": "read"}]
    )
    live_server.put_note(
        f"{ORG}/guilds/guild_ops/style-guide.md",
        text="Shorter.",
        access=[{"principal": "guild:guild_ops", "role": "read"}],
    )
    seen = {
        who: [
            e.data["display_path"]
            for e in _backlog(live_server, who, start)
            if e.name == "note_saved"
        ]
        for who in ("ann", "mia", "bob", "scout", "analyst")
    }
    style = f"{ORG}/guilds/guild_ops/style-guide.md"
    assert seen["ann"] == [PRIVATE, style]  # operators read every note
    assert seen["mia"] == [PRIVATE]
    assert seen["scout"] == [style]  # guild_ops reads the style guide
    assert seen["analyst"] == []  # guild_research reads neither
    assert seen["bob"] == [PRIVATE, style]


def test_presence_reaches_others_and_says_since_when(
    live_server: LiveServer, subscribers: list[Subscriber]
) -> None:
    stream = _subscribe(live_server, "ann", subscribers)
    posted = call(
        live_server, "POST", "/api/presence", "bob", json={"agent_id": "a_scout", "editing": True}
    )
    assert posted.status_code == 204
    event = stream.next_event("presence")
    assert event.data["agent_id"] == "a_scout"
    assert (event.data["person_id"], event.data["name"], event.data["editing"]) == (
        "u_bob",
        "Bob",
        True,
    )
    assert event.data["present"] is True
    since = event.data["since"]
    # Still editing: the same since; a newcomer's stream is told who is there when it opens.
    call(live_server, "POST", "/api/presence", "bob", json={"agent_id": "a_scout", "editing": True})
    late = _subscribe(live_server, "mia", subscribers)
    told = late.next_event("presence")
    assert (told.data["person_id"], told.data["since"]) == ("u_bob", since)
    # Only looking now: the change is told.
    call(
        live_server, "POST", "/api/presence", "bob", json={"agent_id": "a_scout", "editing": False}
    )
    assert stream.next_event("presence").data["editing"] is False


@pytest.mark.parametrize(
    ("who", "body", "status", "error"),
    [
        ("scout", {"agent_id": "a_scout", "editing": True}, 422, "task is not writable"),
        ("ann", {"agent_id": 7}, 422, "agent_id must be a string"),
        ("ann", {"agent_id": "a_scout", "editing": "yes"}, 422, "editing must be true or false"),
        ("ann", {"agent_id": "a_missing"}, 404, "no such agent"),
    ],
)
def test_presence_refusals(
    live_server: LiveServer,
    who: str,
    body: dict,
    status: int,
    error: str,  # type: ignore[type-arg]
) -> None:
    answer = call(live_server, "POST", "/api/presence", who, json=body)
    assert (answer.status_code, answer.json()) == (status, {"error": error})


def test_a_bad_last_event_id_is_refused(live_server: LiveServer) -> None:
    answer = call(live_server, "GET", "/api/events", "ann", headers={"Last-Event-ID": "abc"})
    assert (answer.status_code, answer.json()) == (
        422,
        {"error": "Last-Event-ID must be an event id"},
    )


def test_agents_are_told_saves_but_no_presence(
    live_server: LiveServer, subscribers: list[Subscriber]
) -> None:
    stream = _subscribe(live_server, "scout", subscribers)
    call(live_server, "POST", "/api/presence", "bob", json={"agent_id": "a_scout", "editing": True})
    put_task(live_server, "a_scout", {"content": "For the agent."})
    assert stream.next_event().name == "task_saved"  # the presence came first, and was not told


def test_a_revoked_token_ends_its_stream_and_gets_401(
    live_server: LiveServer, subscribers: list[Subscriber]
) -> None:
    stream = _subscribe(live_server, "bob", subscribers)
    assert cli_main(["admin", "--db", str(live_server.db_path), "revoke", "u_bob"]) == 0
    assert stream.next_event(CLOSED, timeout=5.0).name == CLOSED
    assert call(live_server, "GET", "/api/me", "bob").status_code == 401
    assert call(live_server, "GET", "/api/me", "ann").status_code == 200
