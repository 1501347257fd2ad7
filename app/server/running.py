"""Runs the reference server with uvicorn in a daemon thread on a loopback port."""

from __future__ import annotations

import contextlib
import importlib
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

import uvicorn
from starlette.applications import Starlette

from app.core.workspace import Workspace
from app.server.app_factory import create_app
from app.server.db_open import DatabaseTarget
from app.server.http_guard import ConnectionBook, ConnectionLimits, guarded_protocol
from app.server.kept_reads import KeptReads
from app.server.quick_saves import QuickSaves
from app.server.rate_limit import RunRate

START_TIMEOUT = 15.0
STOP_TIMEOUT = 5.0
LISTEN_BACKLOG = (
    1024  # hundreds of clients connecting at once wait in the queue, not in SYN retries
)


class ServerStartError(RuntimeError):
    """The server thread ended before it accepted connections."""


class ServerHandle:
    """A running reference server: ``url``, ``port``, ``stop()``; also a context manager."""

    def __init__(self, server: uvicorn.Server, thread: threading.Thread, host: str, port: int):
        self._server = server
        self._thread = thread
        self.host = host
        self.port = port
        self.url = f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def stop(self) -> None:
        """Stop accepting, close idle connections, and wait for the thread to end."""
        self._server.should_exit = True
        self._thread.join(STOP_TIMEOUT)
        if self._thread.is_alive():  # a request still running past its grace: cut it off
            self._server.force_exit = True
            self._thread.join(STOP_TIMEOUT)

    def __enter__(self) -> ServerHandle:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def listening_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto IPPROTO_TCP matters: asyncio turns on TCP_NODELAY only for sockets that say TCP,
    # and without it a response's headers and body wait on a 40 ms delayed ACK. Accepted
    # sockets inherit the option on Linux too.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
        sock.listen(LISTEN_BACKLOG)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


def server_config(app: Starlette, limits: ConnectionLimits) -> uvicorn.Config:
    """uvicorn's settings for the reference server (one process, or each worker's)."""
    book = ConnectionBook()  # the token gate marks authenticated connections in it
    app.state.connection_book = book
    return uvicorn.Config(
        # A kept task.md answer is sent, and a small save made, in front of the framework.
        KeptReads(QuickSaves(app, app.state), app.state),
        log_config=None,  # leave the host program's logging alone
        log_level="warning",
        access_log=False,
        lifespan="on",
        ws="none",
        timeout_graceful_shutdown=1,
        timeout_keep_alive=int(limits.keep_alive),
        http=guarded_protocol(limits, book),
        h11_max_incomplete_event_size=limits.max_head_bytes,
    )


def start_server(
    workspace: Path | Workspace | None,
    db_path: DatabaseTarget,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    extensions: bool = True,
    configure: Callable[[Starlette], None] | None = None,
    limits: ConnectionLimits | None = None,
    run_rate: RunRate | None = None,
) -> ServerHandle:
    """Start the server and return once it accepts connections.

    The database is seeded from ``workspace`` only when it is new; a malformed workspace
    raises WorkspaceError naming the bad entry. ``port=0`` takes a free port.
    ``extensions=False``: a spec-only server; ``configure``: see ``create_app``.
    ``limits``: connection timeouts and cap (``http_guard``); the defaults suit production.
    ``run_rate``: how many runs each caller may start (``rate_limit``).
    """
    limits = limits or ConnectionLimits()
    app = create_app(
        db_path, workspace, extensions=extensions, configure=configure, run_rate=run_rate
    )
    # Bind here, not in uvicorn, so the port is known (port 0) and a busy port fails now.
    try:
        sock = listening_socket(host, port)
    except OSError:
        app.state.db.close()
        raise
    config = server_config(app, limits)
    server = uvicorn.Server(config)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name="taskdesk-server", daemon=True
    )
    thread.start()
    deadline = time.monotonic() + START_TIMEOUT
    # uvicorn sets `started` once the socket serves; no event exists, so wait on the thread.
    while not server.started:
        thread.join(0.001)  # a millisecond, not five: the app's first Task waits for this
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            sock.close()
            app.state.db.close()
            raise ServerStartError(f"the server on {host}:{port} did not start")
    bound_port = sock.getsockname()[1]
    _warm_up_first_request()
    return ServerHandle(server, thread, host, bound_port)


ASYNC_BACKEND = "anyio._backends._asyncio"
"""What a server's first request loads on its way to the thread pool (anyio loads its
backend on first use): ~20 ms of the first answer, which the app's first Task waited for."""


def _warm_up_first_request() -> None:
    """Loads ``ASYNC_BACKEND`` on a thread of its own now that the server serves. A client's
    first request comes a moment later (the app loads its HTTP client first) and finds it
    loaded; one that comes sooner waits for the import, as it did before."""
    threading.Thread(target=_load_async_backend, name="taskdesk-warm-up", daemon=True).start()


def _load_async_backend() -> None:
    with contextlib.suppress(ImportError):  # an anyio that lays its backends out otherwise
        importlib.import_module(ASYNC_BACKEND)
