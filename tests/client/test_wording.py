"""What the client says about a failed connection: once, plainly, and right about the cause."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

from app.client import TaskdeskClient
from app.client.errors import TaskdeskError


@pytest.fixture
def not_a_web_server() -> Iterator[str]:
    """A loopback port that answers every connection with a line that isn't HTTP."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            with conn:
                conn.recv(1024)
                conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join(5)
    listener.close()


def test_a_port_that_is_no_web_server_is_named_so(not_a_web_server: str) -> None:
    with TaskdeskClient(not_a_web_server, "a-token") as client, pytest.raises(TaskdeskError) as err:
        client.me()
    message = err.value.message
    assert "doesn't answer like a web server" in message
    assert "network" not in message
    assert "edits" not in message  # the client doesn't know whether there are any


def test_a_refused_connection_says_nothing_of_edits() -> None:
    with (
        TaskdeskClient("http://127.0.0.1:1", "a-token") as client,
        pytest.raises(TaskdeskError) as err,
    ):
        client.me()
    assert "edits" not in err.value.message
    assert "…." not in err.value.message and ".." not in err.value.message
