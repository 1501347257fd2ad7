"""Raw HTTP over a real loopback socket: requests no well-behaved client library would send."""

from __future__ import annotations

import json
import socket
from dataclasses import dataclass
from typing import Any

TIMEOUT = 10.0


@dataclass(frozen=True, slots=True)
class RawAnswer:
    status: int | None  # None: the server closed without answering
    headers: dict[str, str]
    body: bytes
    timed_out: bool

    def json(self) -> Any:
        return json.loads(self.body)


def parse_answer(data: bytes, timed_out: bool) -> RawAnswer:
    if not data:
        return RawAnswer(None, {}, b"", timed_out)
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return RawAnswer(status, headers, body, timed_out)


def read_answer(sock: socket.socket, timeout: float = TIMEOUT) -> RawAnswer:
    """Everything the server sends until it closes the connection (or ``timeout`` passes)."""
    sock.settimeout(timeout)
    data = b""
    timed_out = False
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    except TimeoutError:
        timed_out = True
    except ConnectionResetError:
        pass
    return parse_answer(data, timed_out)


def connect(url: str) -> socket.socket:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    return socket.create_connection((host, int(port)), timeout=TIMEOUT)


def send_raw(url: str, data: bytes, timeout: float = TIMEOUT) -> RawAnswer:
    """Send ``data`` as it is on a new connection and read the answer until the server closes."""
    with connect(url) as sock:
        sock.sendall(data)
        return read_answer(sock, timeout)


def open_idle_connection(url: str) -> socket.socket:
    """A connection the server has accepted and answered once, now idle in keep-alive."""
    sock = connect(url)
    sock.sendall(b"GET /api/me HTTP/1.1\r\nHost: test\r\n\r\n")
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(parse_answer(head + b"\r\n\r\n", False).headers["content-length"])
    while len(body) < length:
        body += sock.recv(65536)
    return sock
