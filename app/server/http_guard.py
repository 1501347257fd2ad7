"""The HTTP connection layer under the API: timeouts, a connection cap, JSON-shaped refusals.

uvicorn's h11 protocol with three guards it lacks: a request's head must arrive within
``head_timeout`` of its first byte (or of the connection opening), a body must keep coming
(no gap longer than ``body_idle_timeout``), and at most ``max_connections`` are open at once.
Past the cap a new connection gets 503 at once and is closed, so slow clients cannot starve
the file descriptors; the cap sits well above 500 so a normal request is still served while
hundreds of slow ones wait out their timeout. Malformed HTTP (a NUL, a space or a non-ASCII
byte in the target, a broken header) gets 400 in the API's ``{"error": …}`` shape.
"""

from __future__ import annotations

import asyncio
import http
import logging
import resource
from dataclasses import dataclass

import h11
import orjson
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger(__name__)

HEAD_TIMEOUT_S = 10.0
BODY_IDLE_TIMEOUT_S = 10.0
KEEP_ALIVE_S = 30.0  # longer than the app's 15 s poll, so the poll reuses its connection
MAX_HEAD_BYTES = 16 * 1024
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


class GuardedH11Protocol(H11Protocol):
    """H11Protocol with the guards above; ``limits`` is set by ``guarded_protocol``."""

    limits: ConnectionLimits = ConnectionLimits()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self._refused = len(self.connections) > self.limits.max_connections
        if self._refused:
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
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # answered already; whatever the client sends is dropped
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
            self._arm_body_timer()
        else:
            self._cancel_timers()

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
        self._cancel(body=True)
        self._body_timer = self.loop.call_later(
            self.limits.body_idle_timeout, self._on_body_timeout
        )

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
        log.info("closing a connection whose request body stalled")
        self.transport.close()


def guarded_protocol(limits: ConnectionLimits) -> type[GuardedH11Protocol]:
    """The protocol class uvicorn instantiates per connection, carrying these limits."""
    capped = ConnectionLimits(
        limits.head_timeout,
        limits.body_idle_timeout,
        limits.keep_alive,
        limits.max_head_bytes,
        connection_cap(limits.max_connections),
    )
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"limits": capped})
