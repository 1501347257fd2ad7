"""The client of ``GET /api/events`` (EXTENSION): one streaming connection, its events parsed.

Over ``http.client`` rather than the client's requests session: a stream lasts for hours,
so it gets a connection of its own, and ``close()`` shuts that socket down, which ends a
read waiting on another thread at once (a requests stream waits for its next line). The
server sends a comment at least every 15 s, so a read that waits ``READ_TIMEOUT_S`` means
the connection is dead. Failures are the client's typed errors (``status_errors``).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from app.client.errors import ConnectionLost, TaskdeskError, Unreachable
from app.client.status_errors import error_for_status

EVENTS_PATH = "/api/events"
CONNECT_TIMEOUT_S = 5.0
READ_TIMEOUT_S = 40.0  # past two of the server's keep-alive comments
MAX_LINE = 1024 * 1024  # an event's data is small; a longer line is not a Taskdesk server's


@dataclass(frozen=True, slots=True)
class LiveEvent:
    """One server-sent event: ``task_saved``, ``proposal``, ``note_saved`` or ``presence``."""

    name: str
    data: dict[str, Any]
    id: int | None


def parse_block(lines: list[str]) -> LiveEvent | None:
    """One event from its lines (comments and unknown fields skipped); None for none."""
    name, data, event_id = "message", [], None
    for line in lines:
        if not line or line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
        elif field == "id" and value.isdigit():
            event_id = int(value)
    if not data:
        return None
    try:
        decoded = json.loads("\n".join(data))
    except ValueError:
        return None
    return LiveEvent(name, decoded, event_id) if isinstance(decoded, dict) else None


class EventStream:
    """One subscription; ``events()`` yields until the server ends it or ``close()``."""

    def __init__(self, base_url: str, token: str, *, last_event_id: int | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self._token = token
        self._last_event_id = last_event_id
        self._conn: http.client.HTTPConnection | None = None
        self._closed = False

    def open(self) -> None:
        """Connect and read the answer's head; the typed error for anything but 200."""
        self._raise_if_closed()
        parts = urlsplit(self.base_url)
        kind = (
            http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        )
        conn = kind(parts.hostname or "", parts.port, timeout=CONNECT_TIMEOUT_S)
        self._conn = conn
        headers = {"Authorization": f"Bearer {self._token}", "Accept": "text/event-stream"}
        if self._last_event_id is not None:
            headers["Last-Event-ID"] = str(self._last_event_id)
        path = (parts.path.rstrip("/") or "") + EVENTS_PATH
        try:
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
        except OSError as exc:
            self.release()
            raise Unreachable(
                f"Taskdesk could not open live updates from {self.base_url}: {exc}."
            ) from None
        except http.client.HTTPException:
            self.release()
            raise ConnectionLost() from None
        if response.status != 200:
            body = response.read(64 * 1024)
            self.release()
            raise error_for_status(
                response.status,
                dict(response.getheaders()),
                body,
                server=self.base_url,
                method="GET",
            )
        if not (response.getheader("Content-Type") or "").startswith("text/event-stream"):
            self.release()
            raise TaskdeskError(f"{self.base_url} answered {EVENTS_PATH} with no event stream.")
        self._raise_if_closed()  # close() came while connecting, before a socket to end
        if conn.sock is not None:
            conn.sock.settimeout(READ_TIMEOUT_S)
        self._response = response

    def events(self) -> Iterator[LiveEvent]:
        """The events as they come; ConnectionLost when the connection drops unasked."""
        block: list[str] = []
        try:
            while True:
                raw = self._response.readline(MAX_LINE)
                if not raw:
                    break
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                if line:
                    block.append(line)
                    continue
                event = parse_block(block)
                block = []
                if event is not None:
                    yield event
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            if not self._closed:
                raise ConnectionLost() from None
        if not self._closed:
            raise ConnectionLost("The server ended the live updates.")

    def _raise_if_closed(self) -> None:
        """close() (from another thread) came before the stream was open: open nothing."""
        if self._closed:
            self.release()
            raise ConnectionLost("The live updates were closed before they opened.")

    def release(self) -> None:
        """Closes the connection; on the thread that reads (``close()`` from any other)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(OSError, AttributeError, http.client.HTTPException):
                conn.close()

    def close(self) -> None:
        """Ends the stream now, from any thread: a read waiting on it returns at once."""
        self._closed = True
        conn = self._conn
        if conn is not None and conn.sock is not None:
            with contextlib.suppress(OSError):
                conn.sock.shutdown(socket.SHUT_RDWR)
