"""The org search's answer written straight as JSON bytes: a hit is one bytes format of its
line, column and the line's text encoded once per Task version, never a dict encoded later.

The bytes are exactly what ``orjson.dumps`` makes of ``{"agents": [{id, name, matches:
[{line, column, text}]}]}`` (API.md "The fleet"): the same fields in the same order. A search
where every agent hits makes tens of thousands of hits; building and encoding a dict for each
was most of its time.
"""

from __future__ import annotations

from bisect import bisect_right

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
    """One text as searches need it: its lower-cased form, where its lines start and each
    hit line's encoded text, the last two worked out on the first hit.

    A hit is ``,{"line":N,"column":`` (the head, ``HEADS``), the column and ``,"text":"…"}``
    (the line's tail, kept here); the answer's matches are those joined, less the first
    comma."""

    __slots__ = ("_starts", "_tails", "lowered", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.lowered = text.lower()
        self._starts: list[int] | None = None
        self._tails: list[bytes] | None = None

    def starts(self) -> list[int]:
        found = self._starts
        if found is None:  # two threads may both work it out: the same list either way
            found = self._starts = line_starts(self.text)
        return found

    def _encoded(self) -> tuple[list[int], list[bytes]]:
        """The line starts and the tails by 1-based line (empty till a line is first hit).
        Two threads may each make the list: a tail put in either is the same bytes."""
        starts = self.starts()
        tails = self._tails
        if tails is None:
            tails = self._tails = [b""] * len(starts)
        return starts, tails

    def _tail(self, line: int, starts: list[int], tails: list[bytes]) -> bytes:
        """Fills in ``line``'s tail (never empty: at least ``,"text":""}``) and returns it."""
        words = self.text[starts[line - 1] : starts[line] - 1].removesuffix("\r")
        tail = tails[line] = b',"text":' + orjson.dumps(words) + b"}"
        return tail

    def encoded_matches(self, search: LineSearch) -> bytes:
        """The ``matches`` of this text, comma-joined JSON objects; empty without a hit."""
        needle = search.needle
        if needle is not None and len(self.lowered) == len(self.text):
            if needle not in self.lowered:
                return b""
            found = self._plain(needle)
        else:
            if needle is None and search.pattern.search(self.text) is None:
                return b""
            found = self._pattern(search)
        return b"".join(found)[1:]

    def _plain(self, needle: str) -> list[bytes]:
        # One find and one binary search of the line starts a hit, each from the next line;
        # the hit's three parts looked up, not called for (a search where every Task hits
        # makes tens of thousands of them).
        starts, tails = self._encoded()
        found: list[bytes] = []
        add, find, tail = found.append, self.lowered.find, self._tail
        heads, columns, made = HEADS, COLUMNS, NUMBERS_MADE
        at = find(needle)
        while at >= 0:
            line = bisect_right(starts, at)
            column = at - starts[line - 1] + 1
            add(heads[line] if line < made else _head(line))
            add(columns[column] if column < made else b"%d" % column)
            add(tails[line] or tail(line, starts, tails))
            at = find(needle, starts[line])
        return found

    def _pattern(self, search: LineSearch) -> list[bytes]:
        # As line_matches: one search a matching line, the rest of the line never again.
        starts, tails = self._encoded()
        found: list[bytes] = []
        add, find, tail, text = found.append, search.pattern.search, self._tail, self.text
        pos, size = 0, len(text)
        while pos <= size:
            match = find(text, pos)
            if match is None:
                break
            at = match.start()
            line = bisect_right(starts, at)
            column = at - starts[line - 1] + 1
            add(_head(line))
            add(COLUMNS[column] if column < NUMBERS_MADE else b"%d" % column)
            add(tails[line] or tail(line, starts, tails))
            pos = starts[line]
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
