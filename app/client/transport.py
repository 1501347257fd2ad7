"""HTTP for the client: timeouts, a deadline, bounded reads, no redirects, typed errors."""

from __future__ import annotations

import contextlib
import functools
import http.client
import ipaddress
import logging
import platform
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
import urllib3.exceptions
from requests.auth import AuthBase
from requests.structures import CaseInsensitiveDict

from app.client.deadline import DeadlineAdapter, RequestDeadline
from app.client.errors import (
    BadResponse,
    ConnectionLost,
    InvalidRequest,
    TaskdeskError,
    TimedOut,
    Unreachable,
)
from app.client.scrubbing import REDACTED, scrub_tokens
from app.client.status_errors import error_for_status
from app.core.limits import TASK_ANSWER_MAX_BYTES

log = logging.getLogger(__name__)

MIB = 1024 * 1024

DEFAULT_MAX_BODY_BYTES = -(-TASK_ANSWER_MAX_BYTES // MIB) * MIB
"""Largest answer read: the largest Task answer a server may legally send (the spec's worst
case, ``limits.TASK_ANSWER_MAX_BYTES``), rounded up to whole MiB: 80 MiB."""

DEFAULT_DEADLINE = 60.0
"""Longest any one request may take from start to last byte, in seconds."""

READ_CHUNK = 1024 * 1024


class BearerToken(AuthBase):
    """Sets the Authorization header; its repr never shows the token.

    An auth object (rather than a plain header) also stops requests from replacing the
    header with credentials found in ~/.netrc.
    """

    def __init__(self, token: str) -> None:
        self._token = token

    def __call__(self, request: requests.PreparedRequest) -> requests.PreparedRequest:
        request.headers["Authorization"] = f"Bearer {self._token}"
        return request

    def __repr__(self) -> str:
        return f"BearerToken({REDACTED})"


@dataclass(frozen=True, slots=True)
class Answer:
    """A successful answer, read whole."""

    status: int
    headers: CaseInsensitiveDict[str]
    body: bytes


class Transport:
    """Sends one request at a time over a pooled session and reads the answer whole.

    Every request has a connect timeout, a socket read timeout and a total deadline; the
    answer is read up to ``max_body_bytes``; redirects are never followed. Any failure is a
    `TaskdeskError`: no requests, urllib3 or socket exception leaves this class.
    """

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        connect_timeout: float,
        read_timeout: float,
        deadline: float = DEFAULT_DEADLINE,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    ) -> None:
        parts = urlsplit(base_url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise InvalidRequest(
                f"“{base_url}” is not a server address. Enter one like "
                "https://taskdesk.example.com or http://127.0.0.1:8765."
            )
        self.base_url = base_url.strip().rstrip("/")
        self.server = parts.netloc.rpartition("@")[2]  # never show userinfo in messages
        self._token = token
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout
        self.deadline = deadline
        self.max_body_bytes = max_body_bytes
        self._session = requests.Session()
        self._session.auth = BearerToken(token)
        adapter = DeadlineAdapter()
        self._session.mount("http://", adapter)
        self._session.mount("https://", adapter)
        self._in_flight: set[RequestDeadline] = set()
        self._in_flight_lock = threading.Lock()
        self._cancelled = False
        self._session.headers["Accept"] = "application/json"
        self._session.headers["User-Agent"] = user_agent()
        if _is_loopback(parts.hostname):
            # A proxy from the environment would see the token of a local server in plain
            # HTTP; loopback never needs one.
            self._session.trust_env = False

    def __repr__(self) -> str:
        return f"Transport({self.base_url!r})"

    def close(self) -> None:
        self._session.close()

    def cancel_all(self) -> None:
        """End every request in flight at once and refuse new ones: the app is quitting.

        Each request's socket is shut down (as its deadline would), which wakes the thread
        reading it; it then fails as a request that ran out of time."""
        with self._in_flight_lock:
            self._cancelled = True
            in_flight = list(self._in_flight)
        for deadline in in_flight:
            deadline.cancel()

    def request(
        self,
        method: str,
        path: str,
        *,
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        expect: tuple[int, ...] = (200,),
    ) -> Answer:
        """Send ``method path`` and return the answer when its status is in ``expect``.

        Any other status raises the typed error for it (see `status_errors`).
        """
        url = self.base_url + path
        send_headers = dict(headers or {})
        if body is not None:
            send_headers["Content-Type"] = "application/json"
        started = time.monotonic()
        try:
            with RequestDeadline(self.deadline) as deadline, self._tracked(deadline):
                try:
                    answer = self._exchange(method, url, body, send_headers, started)
                except TaskdeskError:
                    raise
                except Exception as exc:  # any failure below us becomes a typed error
                    raise self._network_error(exc, deadline.expired, method) from None
                if deadline.expired:
                    # A cut in the middle of the head can look like a short, complete answer.
                    raise self._deadline_passed()
        except TaskdeskError as err:
            self._scrub(err)
            log.debug("%s %s failed: %s", method, path, type(err).__name__)
            raise
        log.debug(
            "%s %s -> %d (%d bytes, %.3f s)",
            method,
            path,
            answer.status,
            len(answer.body),
            time.monotonic() - started,
        )
        if answer.status not in expect:
            refusal = error_for_status(
                answer.status, answer.headers, answer.body, server=self.server, method=method
            )
            self._scrub(refusal)
            raise refusal
        return answer

    @contextlib.contextmanager
    def _tracked(self, deadline: RequestDeadline) -> Iterator[None]:
        """Keeps ``deadline`` where ``cancel_all`` finds it while its request runs."""
        with self._in_flight_lock:
            if self._cancelled:  # nothing more goes out once the app is quitting
                raise self._deadline_passed()
            self._in_flight.add(deadline)
        try:
            yield
        finally:
            with self._in_flight_lock:
                self._in_flight.discard(deadline)

    def _exchange(
        self, method: str, url: str, body: bytes | None, headers: dict[str, str], started: float
    ) -> Answer:
        response = self._session.request(
            method,
            url,
            data=body,
            headers=headers,
            timeout=(self.connect_timeout, self.read_timeout),
            allow_redirects=False,
            stream=True,
        )
        try:
            return Answer(
                response.status_code, response.headers, self._read_body(response, started)
            )
        finally:
            response.close()

    def _read_body(self, response: requests.Response, started: float) -> bytes:
        declared = response.headers.get("Content-Length")
        # isascii: "²".isdigit() is True, and int("²") raises.
        too_large = (
            declared
            and declared.isascii()
            and declared.isdigit()
            and (int(declared) > self.max_body_bytes)
        )
        if too_large:
            raise self._too_large(response.status_code)
        raw = response.raw
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = raw.read(READ_CHUNK, decode_content=True)
            if not chunk:
                break
            size += len(chunk)
            if size > self.max_body_bytes:
                raise self._too_large(response.status_code)
            chunks.append(chunk)
            # The watchdog cuts a stalled read; this catches a steady trickle between reads.
            if time.monotonic() - started > self.deadline:
                raise self._deadline_passed()
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)

    def _too_large(self, status: int) -> BadResponse:
        limit = self.max_body_bytes / (1024 * 1024)
        return BadResponse(
            f"The server at {self.server} sent an answer larger than {limit:g} MiB, so "
            "Taskdesk stopped reading it. Check that the address points at a Taskdesk server.",
            status=status,
        )

    def _deadline_passed(self) -> TimedOut:
        return TimedOut(
            f"The server at {self.server} did not finish answering within {self.deadline:g} s. "
            "Try again when the server or the network is faster."
        )

    def _network_error(self, exc: Exception, deadline_expired: bool, method: str) -> TaskdeskError:
        """The typed error for a failure of the connection itself (no usable HTTP answer)."""
        if deadline_expired:
            return self._deadline_passed()
        reason = _root_reason(exc)
        if isinstance(exc, requests.exceptions.SSLError):
            return Unreachable(
                f"A secure connection to {self.server} could not be made: its certificate "
                "was not accepted. Check the server address, or ask its administrator."
            )
        if isinstance(exc, requests.exceptions.ConnectTimeout) or isinstance(
            reason, urllib3.exceptions.ConnectTimeoutError
        ):
            if isinstance(reason, urllib3.exceptions.NameResolutionError):
                detail = "its name could not be resolved"
            elif isinstance(reason, urllib3.exceptions.NewConnectionError):
                detail = "the connection was refused"
            else:
                detail = f"it did not accept a connection within {self.connect_timeout:g} s"
            return Unreachable(
                f"The Taskdesk server at {self.server} cannot be reached ({detail}). Check the "
                "network or the server address, then try again."
            )
        if isinstance(exc, requests.exceptions.ReadTimeout) or isinstance(
            reason, (urllib3.exceptions.ReadTimeoutError, TimeoutError)
        ):
            return TimedOut(
                f"The server at {self.server} stopped answering for more than "
                f"{self.read_timeout:g} s. Try again in a moment."
            )
        if isinstance(reason, (urllib3.exceptions.IncompleteRead, urllib3.exceptions.DecodeError)):
            return BadResponse(
                f"The answer from {self.server} was cut off or garbled. Try again; if it keeps "
                "happening, check the network between you and the server."
            )
        if isinstance(exc, requests.exceptions.InvalidURL | urllib3.exceptions.LocationValueError):
            return InvalidRequest(f"The request address for {self.server} is not valid.")
        if isinstance(reason, http.client.BadStatusLine):
            # Something listens there, but what it says is not HTTP (an SSH or mail port).
            return ConnectionLost(
                f"The address {self.server} doesn't answer like a web server. Check the "
                "server address and its port."
            )
        if isinstance(
            exc,
            requests.exceptions.ConnectionError
            | urllib3.exceptions.HTTPError
            | OSError
            | requests.exceptions.ChunkedEncodingError,
        ):
            return ConnectionLost(
                f"The connection to {self.server} broke before its answer arrived. Check the "
                "network, then try again."
            )
        if isinstance(exc, requests.exceptions.RequestException):
            return BadResponse(f"The answer from {self.server} could not be read.")
        log.debug("unexpected failure during %s: %s", method, type(exc).__name__)
        return BadResponse(f"The answer from {self.server} could not be read.")

    def _scrub(self, err: TaskdeskError) -> None:
        """Take the token out of a message built from server text, should a server echo it."""
        scrubbed = scrub_tokens(err.message, [self._token])
        if scrubbed != err.message:
            err.message = scrubbed
            err.args = (err.message,)


@functools.cache
def user_agent() -> str:
    """``Taskdesk/1.2.0 (Linux x86_64)``: so a server's operators can see who calls them."""
    from app import version

    system = " ".join(p for p in (platform.system(), platform.machine()) if p) or "unknown"
    return f"Taskdesk/{version()} ({system})"


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _root_reason(exc: BaseException) -> BaseException:
    """The innermost urllib3/OS cause that requests wraps (MaxRetryError.reason, args[0])."""
    seen: set[int] = set()
    current: BaseException = exc
    while id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, urllib3.exceptions.MaxRetryError) and current.reason is not None:
            current = current.reason
            continue
        inner = current.args[0] if current.args else None
        if isinstance(inner, BaseException):
            current = inner
            continue
        if isinstance(current, urllib3.exceptions.ProtocolError) and len(current.args) > 1:
            second = current.args[1]
            if isinstance(second, BaseException):
                current = second
                continue
        break
    return current
