"""The HTTP connection layer under the API: timeouts, a connection cap, JSON-shaped refusals.

uvicorn's h11 protocol with the guards it lacks: a request's head must arrive within
``head_timeout`` of its first byte (or of the connection opening) and be at most
``max_head_bytes`` however it arrives (431 otherwise); a body must keep coming (no gap longer
than ``body_idle_timeout``) and, after ``body_rate_grace``, at ``min_body_rate`` bytes a
second on average; at most ``max_connections`` are open at once. At the cap a new connection
makes room by closing the oldest connection that has not shown a valid token, or else the
oldest idle one (``ConnectionBook``): connections without a token cannot lock out callers
with one. Only when every open connection is an authenticated request in progress does the
newcomer get 503 and a close. Malformed HTTP (a NUL, a space or a non-ASCII byte in the
target, a broken header) gets 400 in the API's ``{"error": …}`` shape. docs/SECURITY.md says
why each limit is what it is.
"""

from __future__ import annotations

import asyncio
import dataclasses
import http
import logging
import resource
from collections.abc import Iterable
from dataclasses import dataclass

import h11
import orjson
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger(__name__)

HEAD_TIMEOUT_S = 10.0
BODY_IDLE_TIMEOUT_S = 10.0
KEEP_ALIVE_S = 30.0  # longer than the app's 15 s poll, so the poll reuses its connection
MAX_HEAD_BYTES = 16 * 1024
MIN_BODY_RATE = 2048.0  # bytes a second: the largest legal body (1.5 MB) in under 13 minutes
BODY_RATE_GRACE_S = 10.0  # a body's first seconds are not held to the rate (slow start, TLS)
MAX_CONNECTIONS = 1000
REFUSED_LINGER_S = 1.0
FD_HEADROOM = 64  # descriptors kept for the database, logs and the listening socket


def connection_cap(wanted: int = MAX_CONNECTIONS) -> int:
    """``wanted``, or less where the process may open fewer files (1024 is common)."""
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (OSError, ValueError):
        return wanted
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - FD_HEADROOM))


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    head_timeout: float = HEAD_TIMEOUT_S
    body_idle_timeout: float = BODY_IDLE_TIMEOUT_S
    keep_alive: float = KEEP_ALIVE_S
    max_head_bytes: int = MAX_HEAD_BYTES
    max_connections: int = MAX_CONNECTIONS
    min_body_rate: float = MIN_BODY_RATE
    body_rate_grace: float = BODY_RATE_GRACE_S


def error_bytes(status: int, message: str) -> bytes:
    """A whole HTTP/1.1 error answer that closes the connection, for when h11 can't send one."""
    body = orjson.dumps({"error": message})
    head = (
        f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


class ConnectionBook:
    """Which open connections have shown a valid token, told by the API's token gate.

    The gate sees a request's client address, the protocol its connection; the address is
    the key both know. One book per server (``guarded_protocol`` makes it)."""

    def __init__(self) -> None:
        self._by_peer: dict[object, GuardedH11Protocol] = {}

    def opened(self, connection: GuardedH11Protocol) -> None:
        self._by_peer[connection.client] = connection

    def closed(self, connection: GuardedH11Protocol) -> None:
        if self._by_peer.get(connection.client) is connection:
            del self._by_peer[connection.client]

    def authenticated(self, peer: object) -> None:
        """A request on the connection from ``peer`` carried a valid token."""
        connection = self._by_peer.get(peer)
        if connection is not None:
            connection.authenticated = True


def room_maker(connections: Iterable[GuardedH11Protocol]) -> GuardedH11Protocol | None:
    """The connection to close for a newcomer at the cap: the oldest one without a valid
    token, else the oldest idle one; None when every one is an authenticated request."""
    anonymous: GuardedH11Protocol | None = None
    idle: GuardedH11Protocol | None = None
    for connection in connections:
        if connection.leaving:
            continue
        if not connection.authenticated:
            if anonymous is None or connection.opened_at < anonymous.opened_at:
                anonymous = connection
        elif connection.is_idle() and (idle is None or connection.opened_at < idle.opened_at):
            idle = connection
    return anonymous or idle


class GuardedH11Protocol(H11Protocol):
    """H11Protocol with the guards above; ``limits`` and ``book`` are set by
    ``guarded_protocol``."""

    limits: ConnectionLimits = ConnectionLimits()
    book: ConnectionBook = ConnectionBook()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self._head_bytes = 0  # of the request head on its way
        self._head_tail = b""  # its last bytes, for an end of head split across reads
        self._body_started = 0.0
        self._body_bytes = 0
        self.opened_at = self.loop.time()
        self.authenticated = False  # set by the token gate, through the book
        self.leaving = False  # closed by the guard; gone from `connections` soon
        self.book.opened(self)
        self._refused = False
        if self._open_count() > self.limits.max_connections:
            victim = room_maker(c for c in self.connections if c is not self)  # type: ignore[misc]
            if victim is not None:
                victim.make_room()
            else:
                self._refused = True
        if self._refused:
            self.leaving = True
            log.warning("connection refused: %d connections open", len(self.connections) - 1)
            transport.write(error_bytes(503, "too many connections"))
            # Half-close and drain briefly: closing outright would meet the client's request
            # with a reset that can throw away the 503 before the client reads it.
            if transport.can_write_eof():
                transport.write_eof()
            self.loop.call_later(REFUSED_LINGER_S, transport.close)
            return
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timers()
        if hasattr(self, "opened_at"):
            self.book.closed(self)
        super().connection_lost(exc)

    def _open_count(self) -> int:
        return sum(1 for c in self.connections if not getattr(c, "leaving", False))

    def is_idle(self) -> bool:
        """Between requests (keep-alive), no request of its own being read or answered."""
        cycle = self.cycle
        return (cycle is None or cycle.response_complete) and self.conn.their_state in (
            h11.IDLE,
            h11.DONE,
        )

    def make_room(self) -> None:
        """Closed so that a newcomer at the cap can be served."""
        self.leaving = True
        log.info("closing the oldest idle or unauthenticated connection to make room")
        self._cancel_timers()
        if self.conn.their_state is h11.IDLE and not self._head_bytes:
            self.transport.close()  # idle in keep-alive: a close is what a client expects
            return
        self.transport.write(error_bytes(503, "too many connections"))
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._refused or self.leaving:
            return  # answered already; whatever the client sends is dropped
        before = self.conn.their_state
        if before is h11.IDLE and self._head_too_large(data):
            log.info("closing a connection whose request head is over %d bytes", self._limit())
            self.leaving = True
            self._cancel_timers()
            self.transport.write(error_bytes(431, "request head too large"))
            self.transport.close()
            return
        super().data_received(data)
        if self.transport.is_closing():
            self._cancel_timers()
            return
        state = self.conn.their_state
        if state is h11.IDLE:  # a request head is on its way
            if self._head_timer is None:
                self._arm_head_timer()
        elif state is h11.SEND_BODY:
            self._cancel(head=True)
            if before is not h11.SEND_BODY:
                self._body_started = self.loop.time()
                self._body_bytes = 0
            else:
                self._body_bytes += len(data)
            self._arm_body_timer()
        else:
            self._head_bytes, self._head_tail = 0, b""
            self._cancel_timers()
        if state is not h11.IDLE:
            self._head_bytes, self._head_tail = 0, b""

    def _limit(self) -> int:
        return self.limits.max_head_bytes

    def _head_too_large(self, data: bytes) -> bool:
        """Whether the head on its way passes ``max_head_bytes``, counting every byte up to
        its blank line, however the reads cut it (h11 checks only a head still incomplete)."""
        seen = self._head_tail + data
        end = seen.find(b"\r\n\r\n")
        if end >= 0:
            head = self._head_bytes + end + 4 - len(self._head_tail)
            self._head_bytes, self._head_tail = 0, b""
            return head > self._limit()
        self._head_bytes += len(data)
        self._head_tail = seen[-3:]
        return self._head_bytes > self._limit()

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to malformed HTTP, in the API's error shape."""
        body = orjson.dumps({"error": "malformed HTTP request"})
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        try:
            parts = [
                self.conn.send(
                    h11.Response(status_code=400, headers=headers, reason=b"Bad Request")
                ),
                self.conn.send(h11.Data(data=body)),
                self.conn.send(h11.EndOfMessage()),
            ]
            output = b"".join(part for part in parts if part)
        except h11.LocalProtocolError:  # h11 can't answer in this state: write it ourselves
            output = error_bytes(400, "malformed HTTP request")
        self.transport.write(output)
        self.transport.close()

    # ------------------------------------------------------------------ timers

    def _arm_head_timer(self) -> None:
        self._cancel(head=True)
        self._head_timer = self.loop.call_later(self.limits.head_timeout, self._on_head_timeout)

    def _arm_body_timer(self) -> None:
        """Due at the next gap past ``body_idle_timeout`` or when the body falls below
        ``min_body_rate`` (after its grace), whichever comes first."""
        self._cancel(body=True)
        limits = self.limits
        now = self.loop.time()
        rate_due = (
            self._body_started + limits.body_rate_grace + self._body_bytes / limits.min_body_rate
        )
        delay = max(0.0, min(limits.body_idle_timeout, rate_due - now))
        self._body_timer = self.loop.call_later(delay, self._on_body_timeout)

    def _cancel(self, *, head: bool = False, body: bool = False) -> None:
        if head and self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        if body and self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _cancel_timers(self) -> None:
        if hasattr(self, "_head_timer"):
            self._cancel(head=True, body=True)

    def _on_head_timeout(self) -> None:
        self._head_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        log.info("closing a connection whose request head did not arrive in time")
        # No request was read, so h11 can't answer; the bytes are a complete 408 all the same.
        self.transport.write(error_bytes(408, "request head not received in time"))
        self.transport.close()

    def _on_body_timeout(self) -> None:
        self._body_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.SEND_BODY:
            return
        if self.flow.read_paused:
            # The app has not taken what arrived: the wait is ours, not the client's.
            self._body_started = self.loop.time()
            self._body_bytes = 0
            self._arm_body_timer()
            return
        log.info("closing a connection whose request body stalled or came too slowly")
        self.leaving = True
        self.transport.close()


def guarded_protocol(
    limits: ConnectionLimits, book: ConnectionBook | None = None
) -> type[GuardedH11Protocol]:
    """The protocol class uvicorn instantiates per connection, carrying these limits and
    the book the server's token gate marks authenticated connections in."""
    capped = dataclasses.replace(limits, max_connections=connection_cap(limits.max_connections))
    return type(
        "GuardedH11Protocol",
        (GuardedH11Protocol,),
        {"limits": capped, "book": book or ConnectionBook()},
    )
