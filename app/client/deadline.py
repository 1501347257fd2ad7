"""A total deadline per request: a watchdog that cuts the connection of a request that overruns.

The socket read timeout only bounds the wait for each chunk; a server that drips one byte at a
time never trips it. The watchdog shuts the request's socket down when the deadline passes,
which wakes the blocked read in the requesting thread.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import socket
import threading
import time
from typing import Any

from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

_active = threading.local()


class RequestDeadline:
    """Arms a timer for one request; the connection that carries it attaches itself."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.expired = False
        self._lock = threading.Lock()
        self._done = False
        self._connection: HTTPConnection | None = None
        self._sock: socket.socket | None = None

    def __enter__(self) -> RequestDeadline:
        _active.deadline = self
        _WATCHDOG.watch(self)
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._done = True
        _active.deadline = None

    def attach(self, connection: HTTPConnection) -> None:
        """Called once the request is sent, when the connection surely has its socket.

        The socket is kept here because http.client lets go of it (``sock = None``) when the
        answer says Connection: close, while the answer is still being read from it.
        """
        with self._lock:
            self._connection = connection
            self._sock = connection.sock
            connection._taskdesk_deadline = self  # type: ignore[attr-defined]
            expired = self.expired
        if expired:
            self._cut()

    def cancel(self) -> None:
        """End the request now, as if its deadline had passed (the app is quitting)."""
        self._expire()

    def _expire(self) -> None:
        with self._lock:
            if self._done:
                return
            self.expired = True
        self._cut()

    def _cut(self) -> None:
        with self._lock:
            connection, sock = self._connection, self._sock
        if connection is None or sock is None:
            return  # still connecting: the connect timeout bounds that
        # Another request may have taken the pooled connection since: leave it alone.
        if getattr(connection, "_taskdesk_deadline", None) is not self:
            return
        with contextlib.suppress(OSError):  # already closed: the read has ended anyway
            sock.shutdown(socket.SHUT_RDWR)


class _Watchdog:
    """One thread for every request's deadline (a timer thread per request cost a thread
    start on every call): it sleeps until the earliest deadline, and a finished request's
    entry is simply dropped when its time comes."""

    def __init__(self) -> None:
        self._due: list[tuple[float, int, RequestDeadline]] = []
        self._wake = threading.Condition()
        self._count = itertools.count()
        self._thread: threading.Thread | None = None

    def watch(self, deadline: RequestDeadline) -> None:
        with self._wake:
            heapq.heappush(
                self._due, (time.monotonic() + deadline.seconds, next(self._count), deadline)
            )
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="taskdesk-request-deadlines", daemon=True
                )
                self._thread.start()
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._due or self._due[0][0] > time.monotonic():
                    self._wake.wait(self._due[0][0] - time.monotonic() if self._due else None)
                _, _, deadline = heapq.heappop(self._due)
            deadline._expire()


_WATCHDOG = _Watchdog()


def _attach_to_current(connection: HTTPConnection) -> None:
    deadline: RequestDeadline | None = getattr(_active, "deadline", None)
    if deadline is not None:
        deadline.attach(connection)


class _WatchedHTTPConnection(HTTPConnection):
    def request(self, *args: Any, **kwargs: Any) -> None:
        super().request(*args, **kwargs)
        _attach_to_current(self)


class _WatchedHTTPSConnection(HTTPSConnection):
    def request(self, *args: Any, **kwargs: Any) -> None:
        super().request(*args, **kwargs)
        _attach_to_current(self)


class _WatchedHTTPPool(HTTPConnectionPool):
    ConnectionCls = _WatchedHTTPConnection


class _WatchedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _WatchedHTTPSConnection


_WATCHED_POOLS = {"http": _WatchedHTTPPool, "https": _WatchedHTTPSPool}


class DeadlineAdapter(HTTPAdapter):
    """An adapter whose connections obey the current thread's `RequestDeadline`.

    ``max_retries`` stays 0: nothing is ever re-sent behind the caller's back (a PUT in
    particular must not be).
    """

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = dict(_WATCHED_POOLS)

    def proxy_manager_for(self, proxy: str, **proxy_kwargs: Any) -> Any:
        manager = super().proxy_manager_for(proxy, **proxy_kwargs)
        if hasattr(manager, "pool_classes_by_scheme"):
            manager.pool_classes_by_scheme = dict(_WATCHED_POOLS)
        return manager
