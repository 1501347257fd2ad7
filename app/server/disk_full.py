"""A full disk under the database: 507 and one sentence, one log line a minute, no traceback.

SQLite refuses the write (SQLITE_FULL) and rolls the transaction back, so nothing that was
acknowledged is lost and nothing half-written is kept; the caller is told plainly and may
try again once there is room. Any other database or OS error is left to the 500 handler.
"""

from __future__ import annotations

import errno
import logging
import sqlite3
import threading
import time

from starlette.requests import Request
from starlette.responses import Response

from app.server.responses import error_response

log = logging.getLogger(__name__)

DISK_FULL = "the server's disk is full"
"""The 507 message."""

LOG_EVERY_S = 60.0  # a client retrying every second must not fill the log of a full disk too


def is_disk_full(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what caused it) is the disk or the database being full."""
    seen = 0
    while exc is not None and seen < 8:
        if isinstance(exc, sqlite3.Error):
            code = getattr(exc, "sqlite_errorcode", None)
            if isinstance(code, int) and code & 0xFF == sqlite3.SQLITE_FULL:
                return True
        if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


class QuietLog:
    """Logs a warning at most once per ``every`` seconds, counting the ones it held back."""

    def __init__(self, every: float = LOG_EVERY_S) -> None:
        self.every = every
        self._last: float | None = None
        self._held = 0
        self._lock = threading.Lock()

    def warn(self, message: str) -> None:
        now = time.monotonic()
        with self._lock:
            if self._last is not None and now - self._last < self.every:
                self._held += 1
                return
            held, self._held, self._last = self._held, 0, now
        more = f" ({held} more since the last line)" if held else ""
        log.warning("%s%s", message, more)


_LOG = QuietLog()


async def on_storage_error(_request: Request, exc: Exception) -> Response:
    """507 for a full disk; anything else goes on to the 500 handler (and its traceback)."""
    if not is_disk_full(exc):
        raise exc
    _LOG.warn("a write was refused: the disk holding the database is full")
    return error_response(507, DISK_FULL)
