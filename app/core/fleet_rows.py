"""The fleet's rows and search hits worked out from texts: one way for the server and the CLI."""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any

from app.core.expander import Expansion
from app.core.limits import utf8_len
from app.core.shape_codes import task_shape_codes


def health_row(
    agent_id: str,
    name: str,
    guild_id: str,
    version: int,
    content: str,
    *,
    embedded_bytes: int,
    over_budget: bool,
    broken_embeds: int,
    shape: tuple[str, ...] | None = None,
    open_proposals: int = 0,
    last_run_at: str | None = None,
    prompt_changed_since_run: bool | None = None,
) -> dict[str, Any]:
    """One row of ``GET /api/org/health`` (API.md "The fleet"); ``shape`` is worked out from
    ``content`` unless given; ``prompt_changed_since_run`` None without runs."""
    return {
        "id": agent_id,
        "name": name,
        "guild_id": guild_id,
        "task_version": version,
        "task_bytes": utf8_len(content),
        "embedded_bytes": embedded_bytes,
        "over_budget": over_budget,
        "broken_embeds": broken_embeds,
        "shape": list(task_shape_codes(content) if shape is None else shape),
        "open_proposals": open_proposals,
        "last_run_at": last_run_at,
        "prompt_changed_since_run": prompt_changed_since_run,
    }


def expansion_facts(expansion: Expansion) -> dict[str, Any]:
    """``health_row``'s keyword arguments that come from a run's expansion."""
    return {
        "embedded_bytes": expansion.embedded_bytes,
        "over_budget": expansion.over_budget,
        "broken_embeds": len(expansion.broken),
    }


class BadPatternError(ValueError):
    """A search pattern that doesn't compile."""


def search_pattern(query: str, *, regex: bool) -> re.Pattern[str]:
    """The search's pattern: case-insensitive; plain text unless ``regex``."""
    if not regex:
        return re.compile(re.escape(query), re.IGNORECASE)
    try:
        return re.compile(query, re.IGNORECASE | re.MULTILINE)
    except (re.error, OverflowError, RecursionError):
        raise BadPatternError(query) from None


def line_starts(text: str) -> list[int]:
    """Where each ``\n``-ended line of ``text`` starts, and ``len(text) + 1`` after the
    last: line ``n`` (1-based) is ``text[starts[n - 1] : starts[n] - 1]``."""
    starts = [0]
    add, find = starts.append, text.find
    at = find("\n")
    while at >= 0:
        add(at + 1)
        at = find("\n", at + 1)
    add(len(text) + 1)
    return starts


def line_matches(
    pattern: re.Pattern[str], text: str, starts: list[int] | None = None
) -> list[dict[str, Any]]:
    """Each line of ``text`` holding a match, once, with the first match's 1-based column;
    ``starts``: ``line_starts(text)`` when already made.

    One search per matching line, each from the start of the next line: the rest of a line
    is never scanned again.
    """
    starts = line_starts(text) if starts is None else starts
    found: list[dict[str, Any]] = []
    add, search, size = found.append, pattern.search, len(text)
    pos = 0
    while pos <= size:
        match = search(text, pos)
        if match is None:
            break
        at = match.start()
        line = bisect_right(starts, at)
        start, end = starts[line - 1], starts[line] - 1
        add({"line": line, "column": at - start + 1, "text": text[start:end].removesuffix("\r")})
        pos = end + 1
    return found


def plain_line_matches(
    text: str, lowered: str, needle: str, starts: list[int] | None = None
) -> list[dict[str, Any]] | None:
    """As ``line_matches`` for a plain, lower-cased ``needle`` in ``lowered`` (``text``
    lower-cased): a plain ``find``, several times faster than a case-insensitive pattern.
    None where lower-casing changed the text's length (a few letters, such as "İ", do):
    then offsets differ, and the pattern must answer.

    Each hit costs one ``find`` and one binary search of the line starts (kept with the
    text by the server): a search where every Task hits makes tens of thousands of them."""
    if len(lowered) != len(text):
        return None
    starts = line_starts(text) if starts is None else starts
    found: list[dict[str, Any]] = []
    add, find = found.append, lowered.find
    returns = "\r" in text
    at = find(needle)
    while at >= 0:
        line = bisect_right(starts, at)
        start, end = starts[line - 1], starts[line] - 1
        words = text[start:end]
        add(
            {
                "line": line,
                "column": at - start + 1,
                "text": words.removesuffix("\r") if returns else words,
            }
        )
        at = find(needle, end + 1)
    return found


class LineSearch:
    """One search over many texts: plain text (any case) or a Python pattern."""

    def __init__(self, query: str, *, regex: bool) -> None:
        self.pattern = search_pattern(query, regex=regex)  # BadPatternError
        self._needle = None if regex else query.lower()

    @property
    def needle(self) -> str | None:
        """The lower-cased text a plain search looks for; None for a pattern."""
        return self._needle

    def may_hit(self, text: str, lowered: str) -> bool:
        """False where ``text`` (``lowered`` its lower-cased form) surely holds no hit: a
        plain text that is not in it. Cheaper than ``lines``, which also makes line starts."""
        return self._needle is None or self._needle in lowered or len(lowered) != len(text)

    def lines(
        self, text: str, lowered: str | None = None, starts: list[int] | None = None
    ) -> list[dict[str, Any]]:
        """The matching lines of ``text``; ``lowered``: ``text.lower()``, and ``starts``:
        ``line_starts(text)``, when already made."""
        if self._needle is not None:
            low = text.lower() if lowered is None else lowered
            if self._needle not in low and len(low) == len(text):
                return []
            found = plain_line_matches(text, low, self._needle, starts)
            if found is not None:
                return found
        elif self.pattern.search(text) is None:
            return []
        return line_matches(self.pattern, text, starts)
