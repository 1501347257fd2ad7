"""When to try the server again: doubling waits, capped, and the server's Retry-After first."""

from __future__ import annotations

from dataclasses import dataclass, replace

RETRY_CAP_S = 60.0
FIRST_WAIT_S = 1.0


@dataclass(frozen=True, slots=True)
class RetryBackoff:
    """Waits 1, 2, 4 … seconds between tries, never more than ``cap_s``.

    A ``Retry-After`` from the server wins over the doubling (it knows when it will be back),
    but is capped too, so a wrong header cannot park a save for an hour. A value: ``next``
    gives the wait and the backoff that counts one more try.
    """

    first_s: float = FIRST_WAIT_S
    cap_s: float = RETRY_CAP_S
    attempts: int = 0

    def next(self, retry_after: float | None = None) -> tuple[float, RetryBackoff]:
        """The wait before the next try, and the backoff after it."""
        attempts = self.attempts + 1
        counted = replace(self, attempts=attempts)
        if retry_after is not None and retry_after >= 0:
            return min(self.cap_s, float(retry_after)), counted
        return min(self.cap_s, self.first_s * 2 ** (attempts - 1)), counted

    def reset(self) -> RetryBackoff:
        """The backoff for a server that just answered: the next wait is the first again."""
        return self if self.attempts == 0 else replace(self, attempts=0)
