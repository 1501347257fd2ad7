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

COLUMNS = [b"%d" % n for n in range(4096)]
"""Columns as JSON numbers, made once: most hits are within the first 4,096 characters."""


def _column(n: int) -> bytes:
    return COLUMNS[n] if n < len(COLUMNS) else b"%d" % n


class SearchableText:
    """One text as searches need it: its lower-cased form, where its lines start and each
    hit line's encoded JSON around the column, the last two worked out on the first hit.

    A hit is ``,{"line":N,"column":`` (the head), the column and ``,"text":"…"}`` (the
    tail); the answer's matches are those joined, less the first comma."""

    __slots__ = ("_heads", "_starts", "_tails", "lowered", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.lowered = text.lower()
        self._starts: list[int] | None = None
        self._heads: list[bytes | None] | None = None
        self._tails: list[bytes] | None = None

    def starts(self) -> list[int]:
        found = self._starts
        if found is None:  # two threads may both work it out: the same list either way
            found = self._starts = line_starts(self.text)
        return found

    def _encoded(self) -> tuple[list[int], list[bytes | None], list[bytes]]:
        """The line starts and the lists of heads and tails, by 1-based line (empty till a
        line is first hit); made together, so a thread sees all three or makes its own."""
        heads, tails = self._heads, self._tails
        starts = self.starts()
        if heads is None or tails is None:
            lines = len(starts)
            tails = [b""] * lines
            heads = [None] * lines
            self._tails, self._heads = tails, heads
        return starts, heads, tails

    def _encode(self, line: int, heads: list[bytes | None], tails: list[bytes]) -> bytes:
        """Fills in ``line``'s head and tail; its head. The tail goes first: a thread that
        sees the head sees the tail."""
        starts = self.starts()
        words = self.text[starts[line - 1] : starts[line] - 1].removesuffix("\r")
        tails[line] = b',"text":' + orjson.dumps(words) + b"}"
        head = heads[line] = b',{"line":%d,"column":' % line
        return head

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
        # One find and one binary search of the line starts a hit, each from the next line.
        starts, heads, tails = self._encoded()
        found: list[bytes] = []
        add, find, encode = found.append, self.lowered.find, self._encode
        at = find(needle)
        while at >= 0:
            line = bisect_right(starts, at)
            add(heads[line] or encode(line, heads, tails))
            add(_column(at - starts[line - 1] + 1))
            add(tails[line])
            at = find(needle, starts[line])
        return found

    def _pattern(self, search: LineSearch) -> list[bytes]:
        # As line_matches: one search a matching line, the rest of the line never again.
        starts, heads, tails = self._encoded()
        found: list[bytes] = []
        add, find, encode, text = found.append, search.pattern.search, self._encode, self.text
        pos, size = 0, len(text)
        while pos <= size:
            match = find(text, pos)
            if match is None:
                break
            at = match.start()
            line = bisect_right(starts, at)
            add(heads[line] or encode(line, heads, tails))
            add(_column(at - starts[line - 1] + 1))
            add(tails[line])
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
