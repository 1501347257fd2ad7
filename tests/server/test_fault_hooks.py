"""The server's test hooks misbehave as documented, so other tests can rely on them."""

from __future__ import annotations

import socket
import statistics
import time
from pathlib import Path

import pytest
import requests

from app.server import start_server
from tests.figures import Figure
from tests.live_server import WORKSPACE_BASIC, LiveServer
from tests.server.http_calls import TIMEOUT, WRITER_TASK, call, get_task


def test_fail_answers_the_next_requests_with_the_status(live_server: LiveServer) -> None:
    live_server.hook("fail", status=503, count=2, retry_after=2, path="/api/agents/")
    for _ in range(2):
        response = call(live_server, "GET", WRITER_TASK)
        assert (response.status_code, response.json()) == (503, {"error": "service unavailable"})
        assert response.headers["Retry-After"] == "2"
    assert call(live_server, "GET", "/api/me").status_code == 200  # path did not match
    assert call(live_server, "GET", WRITER_TASK).status_code == 200


def test_a_failed_save_writes_nothing(live_server: LiveServer) -> None:
    live_server.hook("fail", status=500, count=1, method="PUT", error="boom")
    response = call(live_server, "PUT", WRITER_TASK, json={"content": "lost"})
    assert (response.status_code, response.json()) == (500, {"error": "boom"})
    assert get_task(live_server, "a_writer")["version"] == 1


def test_delay_slows_requests_until_cleared(live_server: LiveServer) -> None:
    live_server.hook("delay", seconds=0.3)
    assert call(live_server, "GET", "/api/me").ok  # slowed, not failed
    with pytest.raises(requests.ReadTimeout):
        requests.get(live_server.url + "/api/me", headers=live_server.auth("ann"), timeout=0.1)
    live_server.hook("reset")
    assert call(live_server, "GET", "/api/me").ok


def test_delay_after_lets_the_save_land_before_the_client_gives_up(
    live_server: LiveServer,
) -> None:
    live_server.hook("delay", seconds=1.0, after=True, method="PUT")
    with pytest.raises(requests.ReadTimeout):
        requests.put(
            live_server.url + WRITER_TASK,
            json={"content": "landed", "expected_version": 1},
            headers=live_server.auth("ann"),
            timeout=0.3,
        )
    live_server.hook("reset")
    assert get_task(live_server, "a_writer")["content"] == "landed"


def test_cut_drops_the_connection_after_the_save_lands(live_server: LiveServer) -> None:
    live_server.hook("cut", count=1, method="PUT")
    with pytest.raises(requests.exceptions.ChunkedEncodingError):
        call(live_server, "PUT", WRITER_TASK, json={"content": "landed", "expected_version": 1})
    body = get_task(live_server, "a_writer")
    assert (body["content"], body["version"]) == ("landed", 2)


def test_hook_routes_exist_only_in_test_mode(tmp_path: Path) -> None:
    with start_server(WORKSPACE_BASIC, tmp_path / "db.sqlite3") as handle:
        response = requests.post(handle.url + "/__test__/fail", json={}, timeout=TIMEOUT)
        assert response.status_code == 404


def test_small_answers_do_not_wait_on_delayed_acks(live_server: LiveServer, figure: Figure) -> None:
    """Every connection the server accepts has TCP_NODELAY: without it each answer waits
    ~40 ms for the client's delayed ACK. The round trip is printed, not checked."""
    with requests.Session() as session:
        headers = live_server.auth("ann")
        assert session.get(live_server.url + "/api/me", headers=headers, timeout=TIMEOUT).ok
        # uvicorn's record of the open connections: ours is among them, kept alive.
        connections = list(live_server.handle._server.server_state.connections)
        sockets = [c.transport.get_extra_info("socket") for c in connections]
        assert sockets
        assert all(s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) for s in sockets)
        times = []
        for _ in range(21):
            started = time.perf_counter()
            assert session.get(live_server.url + "/api/me", headers=headers, timeout=TIMEOUT).ok
            times.append(time.perf_counter() - started)
    figure(
        "small answer round trip on a kept-alive connection", statistics.median(times) * 1000, "ms"
    )
