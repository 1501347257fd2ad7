"""The search over the embeddable notes: every word must match, best matches first; no Qt.

Built for tens of thousands of notes. What a search needs is prepared once per list (on a
worker thread, see ``NoteIndex``): lower-cased keys, the rows of each kind, the rows by access
list. A key typed then costs one pass of ``in`` over the rows still in question: a search that
narrows the last one (another letter, another word) filters only the last one's matches, and
the recent searches are kept, so Backspace costs nothing. Ranking sorts only the matches.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import compress
from operator import not_
from typing import Literal

from app.core.models import AccessEntry, EmbeddableNote, Reader

NoteKind = Literal["note", "collection"]

# Above this many matches (a letter or two typed, a folder of the path) only the titles that
# start with the search are ranked and lifted to the top (found by bisection in the sorted
# titles): scoring costs ~5 us a row, and a key has 16 ms with the list to paint.
RANK_ALL_UP_TO = 1_000
_KEPT_SEARCHES = 16  # per list: enough for Backspace back to the start of a word or two
_KEPT_ORDERS = 8  # per list: (kind, reader) pairs, e.g. the picker's and the completer's


@dataclass(frozen=True, slots=True)
class Query:
    """What was typed, lower-cased: its words (each must match) and the words as one phrase."""

    words: tuple[str, ...]

    @classmethod
    def of(cls, text: str) -> Query:
        return cls(tuple(dict.fromkeys(text.casefold().split())))

    @property
    def phrase(self) -> str:
        return " ".join(self.words)

    def narrows(self, other: Query) -> bool:
        """True when every row this matches also matches ``other`` (each word of ``other``
        is inside one of ours)."""
        return all(any(o in w for w in self.words) for o in other.words)


@dataclass(frozen=True, slots=True)
class Found:
    """Rows of the notes list matching a search, best first; the ones the reader can't read
    (``unreadable``) come after the others and are counted apart."""

    readable: list[int]
    unreadable: list[int]

    @property
    def rows(self) -> list[int]:
        return self.readable + self.unreadable if self.unreadable else self.readable

    def __len__(self) -> int:
        return len(self.readable) + len(self.unreadable)


class NoteIndex:
    """The notes with their search keys, kind rows and access groups.

    Build it off the GUI thread (plain Python); afterwards use it from one thread only: the
    searches and orders it keeps are caches without locks.
    """

    def __init__(self, notes: Iterable[EmbeddableNote]) -> None:
        self.notes: list[EmbeddableNote] = list(notes)
        listed = self.notes
        # What a search looks in: the title shown, the path and the level, lower-cased. The
        # key starts with the title (up to its first line break), so the title needs no
        # string of its own (3.5 MB at 50,000 notes). A query word never holds a line
        # break (str.split), so no word matches across two fields.
        self.keys = [f"{shown_title(n)}\n{n.display_path}\n{n.level}".casefold() for n in listed]
        # Every list of rows below holds the same int objects (one per row): built from
        # range() each time, 50,000 rows were 50,000 new ints (1.4 MB) per list.
        every_row = list(range(len(listed)))
        self._by_title = sorted(every_row, key=self.keys.__getitem__)
        self._sorted_keys = [self.keys[r] for r in self._by_title]
        self._kind_rows: dict[NoteKind | None, list[int]] = {
            "note": [r for r, n in zip(every_row, listed, strict=True) if n.kind == "note"],
            "collection": [
                r for r, n in zip(every_row, listed, strict=True) if n.kind == "collection"
            ],
            None: every_row,
        }
        # Notes share few access lists (the org, a guild, an agent): readability is decided
        # per list, once, and looked up per note by its group.
        groups: dict[tuple[AccessEntry, ...], int] = {}
        self._group_of = [
            -1 if n.access is None else groups.setdefault(n.access, len(groups)) for n in listed
        ]
        self._readers_of_group: dict[str, list[int]] = {}
        for access, group in groups.items():
            for entry in access:
                if entry.role in ("read", "write"):  # the expander's rule (can_read)
                    self._readers_of_group.setdefault(entry.principal, []).append(group)
        self._group_count = len(groups)
        self.shares_access = bool(groups)  # False: the server doesn't say who can read what
        self._orders: OrderedDict[tuple[NoteKind | None, Reader | None], Found] = OrderedDict()
        # Per (kind, reader): which part each row is in (0: none, 1: readable, 2: not).
        self._parts: dict[tuple[NoteKind | None, Reader | None], bytearray] = {}
        # Per search: its matches in the order's order (to narrow from), and ranked.
        self._found: OrderedDict[
            tuple[NoteKind | None, Reader | None, Query], tuple[Found, Found]
        ] = OrderedDict()

    def __len__(self) -> int:
        return len(self.notes)

    def find(self, text: str, kind: NoteKind | None = None, reader: Reader | None = None) -> Found:
        """The rows of ``kind`` (None: any) whose title, path or level holds every word of
        ``text``; with a reader, the ones it can read first. Best matches first within each."""
        query = Query.of(text)
        order = self.order(kind, reader)
        if not query.words:
            return order
        key = (kind, reader, query)
        kept = self._found.get(key)
        if kept is not None:
            self._found.move_to_end(key)
            return kept[1]
        matched = self._matches(query, kind, reader, order)
        rank = _Ranking(query, self.keys)
        if len(matched) > RANK_ALL_UP_TO:
            lifted = self._titles_starting(query.phrase)
            if len(lifted) > RANK_ALL_UP_TO:
                lifted = []  # a letter or two: the server's order says as much
            if lifted:
                part = self._part(kind, reader)
                ranked = Found(
                    rank.lift([r for r in lifted if part[r] == 1], matched.readable),
                    rank.lift([r for r in lifted if part[r] == 2], matched.unreadable),
                )
            else:
                ranked = matched
        else:
            ranked = Found(rank.sort(matched.readable), rank.sort(matched.unreadable))
        self._found[key] = (matched, ranked)
        if len(self._found) > _KEPT_SEARCHES:
            self._found.popitem(last=False)
        return ranked

    def order(self, kind: NoteKind | None, reader: Reader | None) -> Found:
        """Every row of ``kind`` in the server's order, the ones ``reader`` can't read last."""
        key = (kind, reader)
        kept = self._orders.get(key)
        if kept is not None:
            self._orders.move_to_end(key)
            return kept
        rows = self._kind_rows[kind]
        if reader is None or not self.shares_access:
            found = Found(rows, [])
        else:
            readable: set[int] = set()
            for principal in reader.principals():
                readable.update(self._readers_of_group.get(principal, ()))
            # Per group: True when the reader can't read it; the last slot (-1) is "not said".
            cant = [g not in readable for g in range(self._group_count)] + [False]
            group_of = self._group_of
            flags = [cant[group_of[r]] for r in rows]
            found = Found(list(compress(rows, map(not_, flags))), list(compress(rows, flags)))
        self._orders[key] = found
        self._parts.pop(key, None)
        if len(self._orders) > _KEPT_ORDERS:
            self._parts.pop(self._orders.popitem(last=False)[0], None)
        return found

    # ------------------------------------------------------------------ inside

    def _matches(
        self, query: Query, kind: NoteKind | None, reader: Reader | None, order: Found
    ) -> Found:
        """The rows holding every word, in ``order``'s order: filtered from the smallest
        kept search that this one narrows, or from every row of the kind."""
        start: Found = order
        done: tuple[str, ...] = ()
        for (k, r, q), (found, _ranked) in self._found.items():
            if k == kind and r == reader and query.narrows(q) and len(found) < len(start):
                start, done = found, q.words
        words = sorted((w for w in query.words if w not in done), key=len, reverse=True)
        return Found(self._filter(start.readable, words), self._filter(start.unreadable, words))

    def _part(self, kind: NoteKind | None, reader: Reader | None) -> bytearray:
        """Per row: 0 when not of ``kind``, 1 in the readable part of the order, 2 not."""
        key = (kind, reader)
        part = self._parts.get(key)
        if part is None:
            order = self.order(kind, reader)
            part = bytearray(len(self.notes))
            for r in order.readable:
                part[r] = 1
            for r in order.unreadable:
                part[r] = 2
            self._parts[key] = part
        return part

    def _titles_starting(self, phrase: str) -> list[int]:
        """The rows whose title starts with ``phrase`` (which holds no line break): one
        range of the keys sorted."""
        keys = self._sorted_keys
        low = bisect_left(keys, phrase)
        high = bisect_left(keys, phrase + "\U0010ffff", low)
        return self._by_title[low:high]

    def _filter(self, rows: list[int], words: list[str]) -> list[int]:
        keys = self.keys
        for word in words:  # the longest first: it leaves the fewest rows for the next
            rows = [r for r in rows if word in keys[r]]
            if not rows:
                break
        return rows


class _Ranking:
    """Best first, by the title shown: the same as the search; starting with it as whole
    words; starting with it; holding every word at a word's start; holding every word; the
    rest (a word only in the path or level). Closer titles first within each (rapidfuzz's
    ratio), the server's order among equals."""

    def __init__(self, query: Query, keys: list[str]) -> None:
        # Imported by the first search, not with the editor: the tab loads it on the runner
        # after the first Task is on screen (task_tab.LATER_MODULES).
        from rapidfuzz.fuzz import ratio

        self._ratio = ratio
        self._phrase = query.phrase
        self._words = query.words
        self._keys = keys
        self._at_word_start: list[Callable[[str], object]] = [
            re.compile(rf"(?<!\w){re.escape(w)}").search if w[0].isalnum() else w.__contains__
            for w in query.words
        ]

    def score(self, row: int) -> tuple[int, float]:
        key, phrase = self._keys[row], self._phrase
        title = key[: key.find("\n")]  # the key starts with the title shown
        if title.startswith(phrase):
            tier = 0 if len(title) == len(phrase) else 2 if title[len(phrase)].isalnum() else 1
        elif all(w in title for w in self._words):
            tier = 3 if all(starts(title) for starts in self._at_word_start) else 4
        else:
            tier = 5
        return tier, -self._ratio(phrase, title)

    def sort(self, rows: list[int]) -> list[int]:
        return sorted(rows, key=self.score) if len(rows) > 1 else rows

    def lift(self, top: list[int], rows: list[int]) -> list[int]:
        """``top`` (rows of ``rows``) ranked, then the rest of ``rows`` in their order."""
        if not top:
            return rows
        lifted = set(top)
        return self.sort(sorted(top)) + [r for r in rows if r not in lifted]  # rows: server order


def shown_title(note: EmbeddableNote) -> str:
    """The title a row shows: the note's title, or the last part of its path."""
    return note.title or note.display_path.rsplit("/", 1)[-1]
