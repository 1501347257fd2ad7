"""Cooperative cancellation for long pure work (diffs, merges): the newest request wins."""

from __future__ import annotations

import threading


class CancelledError(Exception):
    """Raised inside cancelled work at its next check; the result is no longer wanted."""


class CancelToken:
    """Set from any thread; the work checks it between steps and stops at the next one.

    Checks are cheap (one Event lookup), so work calls ``check()`` every few hundred steps,
    the way Meld's matcher yields every N steps, instead of being killed from outside.
    """

    __slots__ = ("_event",)

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def check(self) -> None:
        """Raise ``CancelledError`` once ``cancel()`` has been called."""
        if self._event.is_set():
            raise CancelledError


NEVER = CancelToken()
"""A token nobody cancels: the default for callers that always want the result."""


class NewestRequest:
    """Hands out one token per request and cancels the one before it.

    A compare or merge view asks again whenever its texts change; only the newest answer is
    worth finishing, so ``start()`` cancels whatever is still running for an older one.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._current: CancelToken | None = None

    def start(self) -> CancelToken:
        token = CancelToken()
        with self._lock:
            previous, self._current = self._current, token
        if previous is not None:
            previous.cancel()
        return token

    def is_current(self, token: CancelToken) -> bool:
        """True while ``token`` belongs to the newest request (its result may be shown)."""
        with self._lock:
            return token is self._current and not token.cancelled

    def cancel(self) -> None:
        """Cancel the newest request too (the view is closing)."""
        with self._lock:
            previous, self._current = self._current, None
        if previous is not None:
            previous.cancel()
