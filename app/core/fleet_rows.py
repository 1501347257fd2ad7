"""The fleet's rows and search hits worked out from texts: one way for the server and the CLI."""

from __future__ import annotations

import re
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


def line_matches(pattern: re.Pattern[str], text: str) -> list[dict[str, Any]]:
    """Each line of ``text`` holding a match, once, with the first match's 1-based column.

    One search per matching line, each from the start of the next line: the rest of a line
    is never scanned again, and lines are counted only up to where a match is.
    """
    found: list[dict[str, Any]] = []
    line_no, counted_to, pos, size = 1, 0, 0, len(text)
    while pos <= size:
        match = pattern.search(text, pos)
        if match is None:
            break
        at = match.start()
        line_no += text.count("\n", counted_to, at)
        counted_to = at
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = size if end < 0 else end
        found.append(
            {"line": line_no, "column": at - start + 1, "text": text[start:end].removesuffix("\r")}
        )
        pos = end + 1
    return found


def plain_line_matches(text: str, lowered: str, needle: str) -> list[dict[str, Any]] | None:
    """As ``line_matches`` for a plain, lower-cased ``needle`` in ``lowered`` (``text``
    lower-cased): a plain ``find``, several times faster than a case-insensitive pattern.
    None where lower-casing changed the text's length (a few letters, such as "İ", do):
    then offsets differ, and the pattern must answer."""
    if len(lowered) != len(text):
        return None
    found: list[dict[str, Any]] = []
    line_no, counted_to, pos, size = 1, 0, 0, len(text)
    while pos <= size:
        at = lowered.find(needle, pos)
        if at < 0:
            break
        line_no += text.count("\n", counted_to, at)
        counted_to = at
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = size if end < 0 else end
        line = text[start:end].removesuffix("\r")
        found.append({"line": line_no, "column": at - start + 1, "text": line})
        pos = end + 1
    return found


class LineSearch:
    """One search over many texts: plain text (any case) or a Python pattern."""

    def __init__(self, query: str, *, regex: bool) -> None:
        self.pattern = search_pattern(query, regex=regex)  # BadPatternError
        self._needle = None if regex else query.lower()

    def lines(self, text: str, lowered: str | None = None) -> list[dict[str, Any]]:
        """The matching lines of ``text``; ``lowered``: ``text.lower()`` when already made."""
        if self._needle is not None:
            low = text.lower() if lowered is None else lowered
            if self._needle not in low and len(low) == len(text):
                return []
            found = plain_line_matches(text, low, self._needle)
            if found is not None:
                return found
        elif self.pattern.search(text) is None:
            return []
        return line_matches(self.pattern, text)
