"""No one without a token holds the server's connections; heads and redirects stay bounded."""

from __future__ import annotations

import socket
import time

import requests

from tests.live_server import LiveServer
from tests.security.conftest import LimitedServer
from tests.security.raw_http import connect, read_answer, send_raw
from tests.server.http_calls import TIMEOUT, WRITER_TASK

ME_WITH_TOKEN = b"GET /api/me HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ann-secret\r\n\r\n"


def _put_head(length: int, token: str | None) -> bytes:
    lines = [f"PUT {WRITER_TASK} HTTP/1.1", "Host: test", "Content-Type: application/json"]
    if token is not None:
        lines.append(f"Authorization: Bearer {token}")
    lines.append(f"Content-Length: {length}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def _served_with_token(url: str) -> int:
    return requests.get(
        url + "/api/me", headers={"Authorization": "Bearer ann-secret"}, timeout=TIMEOUT
    ).status_code


# ---------------------------------------------------------------- the token before the body


def test_a_body_without_a_token_is_refused_from_the_head_and_the_connection_closed(
    live_server: LiveServer,
) -> None:
    with connect(live_server.url) as sock:
        sock.sendall(_put_head(200_000, None))  # the body never comes
        answer = read_answer(sock, timeout=5)
    assert not answer.timed_out, "the server waited for the body of a caller without a token"
    assert (answer.status, answer.json()) == (401, {"error": "unauthorized"})
    assert answer.headers["connection"] == "close"


def test_a_keep_alive_connection_is_closed_after_a_401(live_server: LiveServer) -> None:
    with connect(live_server.url) as sock:
        sock.sendall(b"GET /api/me HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer nope\r\n\r\n")
        answer = read_answer(sock, timeout=5)  # reads until the server closes
    assert not answer.timed_out, "a connection that got 401 was kept open"
    assert answer.status == 401


def test_a_body_slower_than_the_minimum_rate_is_cut_off(limited_server: LimitedServer) -> None:
    server = limited_server(min_body_rate=200.0, body_rate_grace=0.5)
    started = time.monotonic()
    closed = False
    with connect(server.url) as sock:
        sock.sendall(_put_head(10_000, "ann-secret") + b'{"content": "')
        try:
            while time.monotonic() - started < 8:  # one byte in 0.1 s: 10 bytes a second
                sock.sendall(b"x")
                sock.settimeout(0.1)
                try:
                    if sock.recv(1024) == b"":
                        closed = True
                        break
                except TimeoutError:
                    continue
        except (BrokenPipeError, ConnectionResetError):
            closed = True
    assert closed, "a body trickling in at 10 bytes a second was kept for 8 s"
    assert time.monotonic() - started < 5


# ---------------------------------------------------------------- making room at the cap


def test_at_the_cap_connections_without_a_token_make_room_for_one_with_a_token(
    limited_server: LimitedServer,
) -> None:
    server = limited_server(max_connections=20)
    held: list[socket.socket] = []
    try:
        for _ in range(20):  # a head that is never finished: no token shown
            sock = connect(server.url)
            sock.sendall(b"GET /api/me HTTP/1.1\r\nHost: test\r\n")
            held.append(sock)
        for _ in range(5):  # each new caller with a token closes the oldest of them
            assert _served_with_token(server.url) == 200
    finally:
        for sock in held:
            sock.close()


def test_at_the_cap_idle_connections_make_room(limited_server: LimitedServer) -> None:
    server = limited_server(max_connections=10)
    idle: list[socket.socket] = []
    try:
        for _ in range(10):  # authenticated, then idle in keep-alive
            sock = connect(server.url)
            sock.sendall(ME_WITH_TOKEN)
            _read_one_answer(sock)
            idle.append(sock)
        assert _served_with_token(server.url) == 200
        oldest = idle[0]
        oldest.settimeout(5)
        assert oldest.recv(1024) == b"", "the oldest idle connection was not the one closed"
    finally:
        for sock in idle:
            sock.close()


def _read_one_answer(sock: socket.socket) -> None:
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 ")
    length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
    while len(body) < length:
        body += sock.recv(65536)


def test_connections_that_got_401_leave_the_cap_to_others(limited_server: LimitedServer) -> None:
    """The attack: keep-alive connections asking without a token fill the cap. Today's answer
    closes each of them, so every later caller is served."""
    server = limited_server(max_connections=30)
    held: list[socket.socket] = []
    try:
        for _ in range(30):
            sock = connect(server.url)
            sock.sendall(b"GET /api/me HTTP/1.1\r\nHost: test\r\n\r\n")
            held.append(sock)
        for _ in range(3):
            assert _served_with_token(server.url) == 200
    finally:
        for sock in held:
            sock.close()


# ---------------------------------------------------------------- the head limit, whole


def test_a_head_over_16_kb_in_one_read_is_refused(live_server: LiveServer) -> None:
    head = (
        b"GET /api/me HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ann-secret\r\n"
        + b"X-Padding: "
        + b"a" * (64 * 1024)
        + b"\r\n\r\n"
    )
    answer = send_raw(live_server.url, head)
    assert (answer.status, answer.json()) == (431, {"error": "request head too large"})


def test_a_head_just_under_the_limit_is_served(live_server: LiveServer) -> None:
    head = (
        b"GET /api/me HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ann-secret\r\n"
        b"Connection: close\r\n"
    )
    padding = 16 * 1024 - len(head) - len(b"X-Padding: \r\n\r\n")
    whole = head + b"X-Padding: " + b"a" * padding + b"\r\n\r\n"
    assert len(whole) == 16 * 1024
    answer = send_raw(live_server.url, whole)
    assert answer.status == 200


def test_a_head_over_the_limit_in_pieces_is_refused_too(live_server: LiveServer) -> None:
    with connect(live_server.url) as sock:
        sock.sendall(b"GET /api/me HTTP/1.1\r\nHost: test\r\nX-Padding: ")
        try:
            for _ in range(20):
                sock.sendall(b"a" * 1024)
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = read_answer(sock, timeout=5)
    assert answer.status in (431, None)


# ---------------------------------------------------------------- no redirects


def test_a_trailing_slash_is_404_and_never_a_redirect_to_the_request_s_host(
    live_server: LiveServer,
) -> None:
    for method in (b"GET", b"PUT"):
        answer = send_raw(
            live_server.url,
            method + b" /api/me/ HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 0\r\n"
            b"Connection: close\r\n\r\n",
        )
        assert (answer.status, answer.json()) == (404, {"error": "not found"})
        assert "location" not in answer.headers
