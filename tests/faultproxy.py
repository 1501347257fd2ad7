"""A real HTTP proxy on loopback that injects faults between the client and a real server.

Use it as a context manager in front of a running server::

    with FaultProxy(server.url) as proxy:
        client = TaskdeskClient(proxy.url, "ann-secret")
        proxy.fault(Fault.DROP_RESPONSE, method="PUT", times=1)
        ...

Every request is read whole, matched against the rules (first match wins, a rule with
``times`` is used up after that many requests), and either forwarded to the server or
answered with the fault. Each client connection carries one request (the proxy answers with
``Connection: close``), so every exchange is recorded on its own in ``proxy.exchanges``.
"""

from __future__ import annotations

import contextlib
import enum
import itertools
import json
import re
import socket
import struct
import threading
from dataclasses import dataclass, field
from urllib.parse import urlsplit

_SERIAL = itertools.count(1)  # tells proxies apart: ports are reused, a proxy's number is not
HEAD_LIMIT = 64 * 1024
MAX_CONNECTIONS = 64
IO_TIMEOUT = 30.0


class Fault(enum.Enum):
    PASS = "pass"  # forward as is
    STATUS = "status"  # answer `status` with a JSON error body (and `retry_after`)
    CONFLICT_NO_BODY = "conflict_no_body"  # 409 with an empty body
    MALFORMED_JSON = "malformed_json"  # 200, JSON cut in the middle of an object
    WRONG_SHAPE = "wrong_shape"  # 200, valid JSON of the wrong shape
    DEEP_JSON = "deep_json"  # 200, a notes list nested `size` arrays deep (not valid JSON)
    HTML_200 = "html_200"  # 200, an HTML sign-in page
    TRUNCATED = "truncated"  # forward; send half the body under the full Content-Length; close
    RESET = "reset"  # read the request, then reset the connection (nothing forwarded)
    SLOW = "slow"  # forward; drip the whole answer, headers included, a byte per `delay`
    SLOW_BODY = "slow_body"  # forward; headers at once, then the body a byte per `delay`
    HUGE = "huge"  # 200 and `size` bytes of JSON-looking body, streamed
    HANG = "hang"  # read the request, never answer
    DROP_RESPONSE = "drop_response"  # forward (the server acts on it), then reset the client
    REDIRECT = "redirect"  # `status` (a 3xx; 302 otherwise) to `location`
    REFUSE = "refuse"  # the listener is closed: connections are refused


@dataclass
class Rule:
    fault: Fault
    path: re.Pattern[str] | None = None
    method: str | None = None
    times: int | None = None  # None: until cleared
    status: int = 500
    retry_after: str | None = None
    error: str = "injected failure"  # the STATUS answer's {"error": …}
    delay: float = 0.05
    size: int = 200 * 1024 * 1024
    declare_length: bool = True
    location: str = "http://127.0.0.1:9/elsewhere"

    def matches(self, method: str, path: str) -> bool:
        if self.times is not None and self.times <= 0:
            return False
        if self.method is not None and self.method != method:
            return False
        return self.path is None or self.path.search(path) is not None


@dataclass
class Exchange:
    """One request as the proxy saw it, and what went back to the client."""

    method: str
    path: str
    headers: dict[str, str]
    fault: Fault
    status: int | None = None
    bytes_sent: int = 0  # everything written to the client, head included
    body_bytes_sent: int = 0  # the part of it after the head
    done: threading.Event = field(default_factory=threading.Event)


_REASONS = {
    200: "OK",
    301: "Moved Permanently",
    302: "Found",
    307: "Temporary Redirect",
    308: "Permanent Redirect",
    401: "Unauthorized",
    404: "Not Found",
    409: "Conflict",
    413: "Content Too Large",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


def _head(status: int, headers: list[tuple[str, str]]) -> bytes:
    lines = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Status')}"]
    lines += [f"{k}: {v}" for k, v in headers]
    lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _simple(status: int, body: bytes, content_type: str, extra: list[tuple[str, str]]) -> bytes:
    headers = [("Content-Type", content_type), ("Content-Length", str(len(body))), *extra]
    return _head(status, headers) + body


class FaultProxy:
    """A threaded HTTP/1.1 proxy to ``upstream_url`` whose faults tests switch at will."""

    def __init__(self, upstream_url: str, *, host: str = "127.0.0.1", port: int = 0) -> None:
        parts = urlsplit(upstream_url)
        assert parts.hostname and parts.port, "the upstream needs a host and a port"
        self._upstream = (parts.hostname, parts.port)
        self._host = host
        self._port = port
        self.name = f"faultproxy{next(_SERIAL)}"  # its threads are named "<name>-…"
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)
        self._rules: list[Rule] = []
        self._listener: socket.socket | None = None
        self._accept_thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._open: set[socket.socket] = set()
        self._workers: set[threading.Thread] = set()
        self.exchanges: list[Exchange] = []

    # ------------------------------------------------------------------ life cycle

    def __enter__(self) -> FaultProxy:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        return f"http://{self._host}:{self._port}"

    def start(self) -> None:
        self._stopping.clear()
        self._listen()

    def stop(self) -> None:
        """Close the listener and every open connection, and wait for the workers."""
        self._stopping.set()
        self._close_listener()
        with self._lock:
            sockets = list(self._open)
            workers = list(self._workers)
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        for worker in workers:
            worker.join(timeout=5)

    def _listen(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((self._host, self._port))
        listener.listen(MAX_CONNECTIONS)
        self._port = listener.getsockname()[1]  # keep the port when the listener comes back
        self._listener = listener
        self._accept_thread = threading.Thread(
            target=self._accept_loop,
            args=(listener,),
            name=f"{self.name}-accept-{self._port}",
            daemon=True,
        )
        self._accept_thread.start()

    def _close_listener(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        if self._accept_thread is not None:
            self._accept_thread.join(timeout=5)
            self._accept_thread = None

    # ------------------------------------------------------------------ rules

    def fault(
        self,
        fault: Fault,
        *,
        path: str | None = None,
        method: str | None = None,
        times: int | None = None,
        **params: object,
    ) -> None:
        """Replace every rule with this one (see `Rule` for ``params``)."""
        self.clear()
        self.add(fault, path=path, method=method, times=times, **params)

    def add(
        self,
        fault: Fault,
        *,
        path: str | None = None,
        method: str | None = None,
        times: int | None = None,
        **params: object,
    ) -> None:
        """Add a rule after the existing ones. REFUSE closes the listener at once."""
        if fault is Fault.REFUSE:
            self._close_listener()
            return
        rule = Rule(fault, re.compile(path) if path else None, method, times)
        for key, value in params.items():
            if not hasattr(rule, key):
                raise TypeError(f"unknown fault parameter {key!r}")
            setattr(rule, key, value)
        with self._lock:
            self._rules.append(rule)

    def clear(self) -> None:
        """Back to plain forwarding; a refused listener listens again on the same port."""
        with self._lock:
            self._rules.clear()
        if self._listener is None and not self._stopping.is_set():
            self._listen()

    def _rule_for(self, method: str, path: str) -> Rule:
        with self._lock:
            for rule in self._rules:
                if rule.matches(method, path):
                    if rule.times is not None:
                        rule.times -= 1
                    return rule
        return Rule(Fault.PASS)

    def wait_for_requests(self, count: int, timeout: float = 5.0) -> bool:
        """Block until ``count`` requests have arrived in all (e.g. one sent from a thread)."""
        with self._arrived:
            return self._arrived.wait_for(lambda: len(self.exchanges) >= count, timeout)

    def last(self, method: str | None = None) -> Exchange:
        """The latest exchange (of ``method``), after its answer has been fully handled."""
        with self._lock:
            found = [e for e in self.exchanges if method is None or e.method == method]
        assert found, "the proxy has seen no such request"
        found[-1].done.wait(timeout=10)
        return found[-1]

    # ------------------------------------------------------------------ serving

    def _accept_loop(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # the listener was closed
            if not self._slots.acquire(blocking=False):
                client.close()  # bounded: past MAX_CONNECTIONS, refuse work
                continue
            worker = threading.Thread(
                target=self._serve,
                args=(client,),
                name=f"{self.name}-conn-{self._port}",
                daemon=True,
            )
            with self._lock:
                self._open.add(client)
                self._workers = {w for w in self._workers if w.is_alive()}
                self._workers.add(worker)
            worker.start()

    def _serve(self, client: socket.socket) -> None:
        try:
            client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            client.settimeout(IO_TIMEOUT)
            request = _read_request(client)
            if request is None:
                return
            head, body, method, path, headers = request
            rule = self._rule_for(method, path)
            exchange = Exchange(method, path, headers, rule.fault)
            with self._lock:
                self.exchanges.append(exchange)
                self._arrived.notify_all()
            try:
                self._answer(client, rule, exchange, head, body)
            except OSError:
                pass  # the client went away: that is its right
            finally:
                exchange.done.set()
        except OSError:
            pass
        finally:
            with self._lock:
                self._open.discard(client)
                # The worker stays listed until it has ended (pruned on the next accept), so
                # stop() joins it instead of racing its last lines.
            with contextlib.suppress(OSError):
                client.close()
            self._slots.release()

    def _answer(
        self, client: socket.socket, rule: Rule, exchange: Exchange, head: bytes, body: bytes
    ) -> None:
        fault = rule.fault
        if fault is Fault.RESET:
            _reset(client)
            return
        if fault is Fault.HANG:
            self._stopping.wait()
            return
        if fault is Fault.HUGE:
            self._send_huge(client, rule, exchange)
            return
        canned = _canned(rule)
        if canned is not None:
            self._send(client, exchange, canned)
            return
        upstream = self._forward(head, body)
        if fault is Fault.DROP_RESPONSE:
            _reset(client)
            return
        if fault is Fault.TRUNCATED:
            cut_head, _, cut_body = upstream.partition(b"\r\n\r\n")
            if not cut_body:
                cut_head = _head(200, [("Content-Type", "application/json")])[:-4]
                cut_body = b'{"content": "' + b"x" * 200
            cut_head = _with_header(cut_head, "Content-Length", str(len(cut_body) * 2))
            self._send(client, exchange, cut_head + b"\r\n\r\n" + cut_body[: len(cut_body) // 2])
            return
        if fault is Fault.SLOW:
            self._drip(client, exchange, upstream, 0, rule.delay)
            return
        if fault is Fault.SLOW_BODY:
            split = upstream.find(b"\r\n\r\n") + 4
            self._drip(client, exchange, upstream, split, rule.delay)
            return
        self._send(client, exchange, upstream)

    def _forward(self, head: bytes, body: bytes) -> bytes:
        """Send the request to the server on a fresh connection; its whole answer, reframed
        with Connection: close."""
        with socket.create_connection(self._upstream, timeout=IO_TIMEOUT) as up:
            with self._lock:
                self._open.add(up)  # so that stop() can cut a slow server's answer short
            try:
                up.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                up.sendall(_with_header(head, "Connection", "close") + b"\r\n\r\n" + body)
                chunks = []
                while chunk := up.recv(1024 * 1024):
                    chunks.append(chunk)
            finally:
                with self._lock:
                    self._open.discard(up)
        answer = b"".join(chunks)
        answer_head, sep, answer_body = answer.partition(b"\r\n\r\n")
        return _with_header(answer_head, "Connection", "close") + sep + answer_body

    def _send(self, client: socket.socket, exchange: Exchange, data: bytes) -> None:
        exchange.status = _status_of(data)
        split = data.find(b"\r\n\r\n")
        client.sendall(data)
        exchange.bytes_sent = len(data)
        exchange.body_bytes_sent = len(data) - (split + 4) if split >= 0 else 0
        with contextlib.suppress(OSError):
            client.shutdown(socket.SHUT_WR)

    def _drip(
        self, client: socket.socket, exchange: Exchange, data: bytes, start: int, delay: float
    ) -> None:
        exchange.status = _status_of(data)
        client.sendall(data[:start])
        exchange.bytes_sent = start
        for i in range(start, len(data)):
            if self._stopping.wait(delay):
                return
            client.sendall(data[i : i + 1])  # OSError once the client gives up: we stop
            exchange.bytes_sent += 1

    def _send_huge(self, client: socket.socket, rule: Rule, exchange: Exchange) -> None:
        exchange.status = 200
        headers = [("Content-Type", "application/json")]
        if rule.declare_length:
            headers.append(("Content-Length", str(rule.size)))
        head = _head(200, headers)
        client.sendall(head)
        exchange.bytes_sent = len(head)
        block = b'{"content": "' + b"x" * (1024 * 1024 - 13)
        sent = 0
        while sent < rule.size and not self._stopping.is_set():
            piece = block[: rule.size - sent]
            client.sendall(piece)  # OSError once the client stops reading and closes
            sent += len(piece)
            exchange.bytes_sent += len(piece)
            exchange.body_bytes_sent = sent


def _canned(rule: Rule) -> bytes | None:
    """The answer of a fault that never reaches the server, or None for forwarding faults."""
    fault = rule.fault
    if fault is Fault.STATUS:
        extra = [("Retry-After", rule.retry_after)] if rule.retry_after is not None else []
        body = json.dumps({"error": rule.error}).encode()
        return _simple(rule.status, body, "application/json", extra)
    if fault is Fault.CONFLICT_NO_BODY:
        return _head(409, [("Content-Length", "0")])
    if fault is Fault.MALFORMED_JSON:
        return _simple(200, b'{"content": "half a Task", "version": ', "application/json", [])
    if fault is Fault.WRONG_SHAPE:
        return _simple(
            200, b'{"unexpected": [1, 2, 3], "version": "seven"}', "application/json", []
        )
    if fault is Fault.DEEP_JSON:
        depth = rule.size
        body = b'{"notes": ' + b"[" * depth + b"]" * depth + b"}"
        return _simple(200, body, "application/json", [])
    if fault is Fault.HTML_200:
        page = b"<!doctype html><html><body><h1>Sign in to the network</h1></body></html>"
        return _simple(200, page, "text/html; charset=utf-8", [])
    if fault is Fault.REDIRECT:
        status = rule.status if 300 <= rule.status <= 399 else 302
        return _simple(status, b"", "text/plain", [("Location", rule.location)])
    return None


def _read_request(client: socket.socket) -> tuple[bytes, bytes, str, str, dict[str, str]] | None:
    """Head (without the blank line), body, method, path and headers; None if the client left."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = client.recv(65536)
        if not chunk:
            return None
        data += chunk
        if len(data) > HEAD_LIMIT:
            return None
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, path, _ = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0") or 0)
    while len(rest) < length:
        chunk = client.recv(min(1024 * 1024, length - len(rest)))
        if not chunk:
            return None
        rest += chunk
    return head, rest[:length], method, path, headers


def _with_header(head: bytes, name: str, value: str) -> bytes:
    """``head`` with every ``name`` header replaced by one ``name: value``."""
    lines = head.split(b"\r\n")
    prefix = name.lower().encode("latin-1") + b":"
    kept = [lines[0]] + [line for line in lines[1:] if not line.lower().startswith(prefix)]
    kept.append(f"{name}: {value}".encode("latin-1"))
    return b"\r\n".join(kept)


def _status_of(data: bytes) -> int | None:
    try:
        return int(data.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return None


def _reset(sock: socket.socket) -> None:
    """Close with a TCP reset rather than an orderly close (SO_LINGER with a zero timeout)."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()
