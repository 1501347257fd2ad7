"""``Retry-After`` read as RFC 9110 §10.2.3 defines it, and never trusted beyond reason.

The value is ``delay-seconds`` (ASCII digits only: ``²`` passes ``str.isdigit`` but is not
one) or an ``HTTP-date`` in any of its three forms (§5.6.7). The answer is clamped to
``0 … RETRY_AFTER_MAX_S``; anything else is None ("the server did not say"). Nothing a server
puts in the header makes this raise.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

RETRY_AFTER_MAX_S = 3600.0
"""A server asking for more than an hour is taken to mean an hour: the app retries anyway."""

_DELAY = re.compile(r"[0-9]+", re.ASCII)
_DAYS = "Mon|Tue|Wed|Thu|Fri|Sat|Sun"
_LONG_DAYS = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_MONTH = "|".join(_MONTHS)
_TIME = r"(?P<h>[0-9]{2}):(?P<m>[0-9]{2}):(?P<s>[0-9]{2})"
_IMF_FIXDATE = re.compile(
    rf"(?:{_DAYS}), (?P<d>[0-9]{{2}}) (?P<mon>{_MONTH}) (?P<y>[0-9]{{4}}) {_TIME} GMT", re.ASCII
)
_RFC850 = re.compile(
    rf"(?:{_LONG_DAYS}), (?P<d>[0-9]{{2}})-(?P<mon>{_MONTH})-(?P<y>[0-9]{{2}}) {_TIME} GMT",
    re.ASCII,
)
_ASCTIME = re.compile(
    rf"(?:{_DAYS}) (?P<mon>{_MONTH}) (?P<d>[ 0-9][0-9]) {_TIME} (?P<y>[0-9]{{4}})", re.ASCII
)


def _clamp(seconds: float) -> float:
    return min(RETRY_AFTER_MAX_S, max(0.0, seconds))


def http_date(value: str, *, now: datetime) -> datetime | None:
    """An HTTP-date (IMF-fixdate, RFC 850 or asctime form) as a UTC datetime, else None."""
    for form in (_IMF_FIXDATE, _RFC850, _ASCTIME):
        found = form.fullmatch(value)
        if found is None:
            continue
        year = int(found["y"])
        if form is _RFC850:
            # §5.6.7: a two-digit year more than 50 years ahead is in the past century.
            year += now.year - now.year % 100
            if year > now.year + 50:
                year -= 100
        try:
            return datetime(
                year,
                _MONTHS.index(found["mon"]) + 1,
                int(found["d"]),
                int(found["h"]),
                int(found["m"]),
                # §5.6.7 allows a leap second (60); datetime doesn't, and a second is nothing.
                min(int(found["s"]), 59),
                tzinfo=UTC,
            )
        except ValueError:  # 31 February, hour 25, …
            return None
    return None


def retry_after_seconds(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds to wait, from 0 to ``RETRY_AFTER_MAX_S``; None when the value says nothing usable."""
    if value is None:
        return None
    value = value.strip(" \t")  # the header's optional whitespace, nothing else
    if _DELAY.fullmatch(value):
        # A long run of digits is just "a long time" (int() refuses over 4,300 digits).
        return RETRY_AFTER_MAX_S if len(value) > 9 else _clamp(float(int(value)))
    current = now or datetime.now(UTC)
    when = http_date(value, now=current)
    if when is None:
        return None
    return _clamp((when - current).total_seconds())
