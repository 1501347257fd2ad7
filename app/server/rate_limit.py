"""How many runs each caller may start: a token bucket per caller, 429 with Retry-After past it."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RunRate:
    """``burst`` runs at once, then one more every ``1 / per_second`` seconds."""

    burst: int = 30
    per_second: float = 1.0


class RateLimiter:
    """Thread-safe token buckets keyed by caller id."""

    def __init__(self, rate: RunRate, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # caller → (tokens, last time)
        self._lock = threading.Lock()

    def take(self, caller_id: str) -> int:
        """0 when the caller may go on (one token taken); else whole seconds to wait."""
        now = self._clock()
        with self._lock:
            tokens, last = self._buckets.get(caller_id, (float(self.rate.burst), now))
            tokens = min(float(self.rate.burst), tokens + (now - last) * self.rate.per_second)
            if tokens >= 1.0:
                self._buckets[caller_id] = (tokens - 1.0, now)
                return 0
            self._buckets[caller_id] = (tokens, now)
            return max(1, math.ceil((1.0 - tokens) / self.rate.per_second))
