"""When to try the server again: doubling waits, capped, and the server's Retry-After first."""

from __future__ import annotations

from dataclasses import dataclass

RETRY_CAP_S = 60.0
FIRST_WAIT_S = 1.0


@dataclass(slots=True)
class RetryBackoff:
    """Waits 1, 2, 4 … seconds between tries, never more than ``cap_s``.

    A ``Retry-After`` from the server wins over the doubling (it knows when it will be back),
    but is capped too, so a wrong header cannot park a save for an hour.
    """

    first_s: float = FIRST_WAIT_S
    cap_s: float = RETRY_CAP_S
    attempts: int = 0

    def next_wait(self, retry_after: float | None = None) -> float:
        self.attempts += 1
        if retry_after is not None and retry_after >= 0:
            return min(self.cap_s, float(retry_after))
        return min(self.cap_s, self.first_s * 2 ** (self.attempts - 1))

    def reset(self) -> None:
        self.attempts = 0
