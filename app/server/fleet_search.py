"""The org search's answer written straight as JSON bytes: a hit is one bytes format of its
line, column and the line's text encoded once per Task version, never a dict encoded later.

The bytes are exactly what ``orjson.dumps`` makes of ``{"agents": [{id, name, matches:
[{line, column, text}]}]}`` (API.md "The fleet"): the same fields in the same order. A search
where every agent hits makes tens of thousands of hits; building and encoding a dict for each
was most of its time.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable

import orjson

from app.core.fleet_rows import LineSearch, line_starts

NUMBERS_MADE = 4096
"""Lines and columns whose JSON is made once: most hits are within the first 4,096 of each."""

COLUMNS = [b"%d" % n for n in range(NUMBERS_MADE)]
"""Columns as JSON numbers."""

HEADS = [b',{"line":%d,"column":' % n for n in range(NUMBERS_MADE)]
"""A hit's JSON up to its column, by line: the same in every text."""


def _head(line: int) -> bytes:
    return HEADS[line] if line < NUMBERS_MADE else b',{"line":%d,"column":' % line


class SearchableText:
    """One text as searches need it: its lower-cased form, and each hit line's encoded text,
    worked out on the line's first hit.

    A hit is ``,{"line":N,"column":`` (the head, ``HEADS``), the column and ``,"text":"…"}``
    (the line's tail, kept here); the answer's matches are those joined, less the first
    comma. The first search that hits a text finds its lines by counting newlines from one
    hit to the next (C speed): were it to build the table of every line start, the first
    search that hits every Task would build 5,000 of them while the operator waits. Later
    searches build the table once and look each hit's line up in it, which is faster."""

    __slots__ = ("_hit_before", "_starts", "_tails", "lowered", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.lowered = text.lower()
        self._starts: list[int] | None = None
        self._tails: dict[int, bytes] = {}  # by 1-based line; a thread's put is the same bytes
        self._hit_before = False

    def starts(self) -> list[int]:
        """Where each line starts (``line_starts``), for callers that want line dicts."""
        found = self._starts
        if found is None:  # two threads may both work it out: the same list either way
            found = self._starts = line_starts(self.text)
        return found

    def encoded_matches(self, search: LineSearch) -> bytes:
        """The ``matches`` of this text, comma-joined JSON objects; empty without a hit."""
        needle = search.needle
        find: Callable[[str, int], int]
        if needle is not None and len(self.lowered) == len(self.text):
            if needle not in self.lowered:
                return b""
            find = self.lowered.find
        else:
            pattern_search, text = search.pattern.search, self.text
            if pattern_search(text) is None:
                return b""

            def pattern_find(_needle: str, pos: int) -> int:
                match = pattern_search(text, pos)
                return -1 if match is None else match.start()

            find, needle = pattern_find, ""
        if self._hit_before:
            return b"".join(self._looked_up(find, needle))[1:]
        self._hit_before = True
        return b"".join(self._counted(find, needle))[1:]

    def _looked_up(self, find: Callable[[str, int], int], needle: str) -> list[bytes]:
        # One find a hit line, each from the next line, and a binary search of the line
        # starts; the hit's three parts looked up, not called for (a search where every
        # Task hits makes tens of thousands of them).
        starts, tails, text = self.starts(), self._tails, self.text
        found: list[bytes] = []
        add = found.append
        heads, columns, made = HEADS, COLUMNS, NUMBERS_MADE
        at = find(needle, 0)
        while at >= 0:
            line = bisect_right(starts, at)
            column = at - starts[line - 1] + 1
            add(heads[line] if line < made else _head(line))
            add(columns[column] if column < made else b"%d" % column)
            tail = tails.get(line)
            if tail is None:
                words = text[starts[line - 1] : starts[line] - 1].removesuffix("\r")
                tail = tails[line] = b',"text":' + orjson.dumps(words) + b"}"
            add(tail)
            if starts[line] > len(text):
                break
            at = find(needle, starts[line])
        return found

    def _counted(self, find: Callable[[str, int], int], needle: str) -> list[bytes]:
        # One find a hit line, each from the next line; the line's number by counting the
        # newlines since the last hit, its start and end by one search each way. The hit's
        # three parts looked up, not called for (a search where every Task hits makes tens
        # of thousands of them).
        text, tails = self.text, self._tails
        count, rfind, nextline = text.count, text.rfind, text.find
        found: list[bytes] = []
        add = found.append
        heads, columns, made, size = HEADS, COLUMNS, NUMBERS_MADE, len(text)
        line, scanned = 1, 0  # ``scanned`` starts line ``line``
        at = find(needle, 0)
        while at >= 0:
            line += count("\n", scanned, at)
            start = rfind("\n", scanned, at) + 1 or scanned
            end = nextline("\n", at)
            if end < 0:
                end = size
            column = at - start + 1
            add(heads[line] if line < made else _head(line))
            add(columns[column] if column < made else b"%d" % column)
            tail = tails.get(line)
            if tail is None:
                words = text[start:end].removesuffix("\r")
                tail = tails[line] = b',"text":' + orjson.dumps(words) + b"}"
            add(tail)
            if end >= size:
                break
            line, scanned = line + 1, end + 1
            at = find(needle, scanned)
        return found


def agent_entry(agent_id: str, name: str, matches: bytes) -> bytes:
    """One agent of the answer, ``matches`` from ``encoded_matches``."""
    return b'{"id":%b,"name":%b,"matches":[%b]}' % (
        orjson.dumps(agent_id),
        orjson.dumps(name),
        matches,
    )


def search_body(entries: list[bytes]) -> bytes:
    """The whole answer: ``{"agents":[…]}``."""
    return b'{"agents":[' + b",".join(entries) + b"]}"
