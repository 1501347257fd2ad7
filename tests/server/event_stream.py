"""A test's subscriber to ``GET /api/events``: a real streaming HTTP connection read on a
thread of its own, each event parsed and handed over through a queue."""

from __future__ import annotations

import contextlib
import http.client
import json
import queue
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

CLOSED = "closed"  # the name of the pseudo-event put when the server ends the stream


@dataclass(frozen=True)
class Event:
    name: str
    data: dict[str, Any]
    id: int | None
    received: float  # time.monotonic() when its last line arrived


def parse_events(text: str) -> list[Event]:
    """The events of a whole text/event-stream body (``?once=1``)."""
    events = []
    for block in text.split("\n\n"):
        event = _parse_block(block.split("\n"), time.monotonic())
        if event is not None:
            events.append(event)
    return events


def _parse_block(lines: list[str], at: float) -> Event | None:
    fields: dict[str, str] = {}
    for line in lines:
        if not line or line.startswith(":"):
            continue
        name, _, value = line.partition(": ")
        fields[name] = value
    if "event" not in fields:
        return None
    return Event(
        fields["event"],
        json.loads(fields["data"]),
        int(fields["id"]) if "id" in fields else None,
        at,
    )


class Subscriber:
    """Events of one stream as they come; ``next_event(name)`` waits for one of that name.

    Over ``http.client`` rather than requests: ``close()`` shuts the socket down, which ends
    the reading thread's wait at once (closing a requests stream waits for the next line)."""

    def __init__(self, url: str, token: str, *, last_event_id: int | None = None) -> None:
        parts = urlsplit(url)
        headers = {"Authorization": f"Bearer {token}", "Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self._conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
        self._conn.request("GET", "/api/events", headers=headers)
        self.response = self._conn.getresponse()
        self.status = self.response.status
        self.content_type = self.response.getheader("content-type", "")
        self.events: queue.Queue[Event] = queue.Queue()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        block: list[str] = []
        try:
            while True:
                raw = self.response.readline()
                if not raw:
                    break
                line = raw.decode().rstrip("\n")
                if line:
                    block.append(line)
                    continue
                event = _parse_block(block, time.monotonic())
                block = []
                if event is not None:
                    self.events.put(event)
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            pass  # closed by the test
        self.events.put(Event(CLOSED, {}, None, time.monotonic()))

    def next_event(self, name: str | None = None, timeout: float = 5.0) -> Event:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {name or 'event'} within {timeout} s")
            try:
                event = self.events.get(timeout=left)
            except queue.Empty:
                continue
            if name is None or event.name in (name, CLOSED):
                return event

    def close(self) -> None:
        sock = self._conn.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self._thread.join(5)  # the reader sees the end of the stream and stops
        with contextlib.suppress(OSError, AttributeError, http.client.HTTPException):
            self._conn.close()
