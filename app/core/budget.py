"""The 64 KB budget broken down: what each inlined note costs, and what to cut when over.

Each note costs its stored text in UTF-8 bytes, once, exactly as ``Expansion.embedded_bytes``
counts it (EXPANSION.md 7). Removing a note means that no embed of it inlines it any more,
in the Task or in a note, as when every ``![[…]]`` of it is deleted. The notes it alone
pulled in at hop 2 then go with it; a note it pulled in that the Task or another inlined note
also embeds stays (and may move to an earlier hop, where its own embeds count again). What a
removal saves is therefore never guessed: the embeds are resolved again without the note.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from app.core.expander import Expansion, NotePiece, Piece, expand_embeds
from app.core.models import OrgFile, Reader

Lookup = Callable[[str], OrgFile | None]


@dataclass(frozen=True, slots=True)
class NoteCost:
    """One inlined note's part of the budget.

    ``share``: of the embedded total; ``pulled_in``: the notes inlined at hop 2 from inside
    it; ``frees``: the bytes the run would lose without it (its own and what only it pulls in).
    """

    path: str
    title: str
    hop: int
    bytes: int
    share: float
    pulled_in: tuple[str, ...]
    frees: int


@dataclass(frozen=True, slots=True)
class BudgetBreakdown:
    """The embedded notes, largest first, against the budget.

    ``removal``: when over, the smallest set of the largest notes whose removal gets the run
    under the budget (largest first); ``total_after_removal``: the embedded bytes then.
    """

    notes: tuple[NoteCost, ...]
    total: int
    budget: int
    removal: tuple[str, ...]
    total_after_removal: int

    @property
    def over_budget(self) -> bool:
        return self.total > self.budget

    @property
    def excess(self) -> int:
        """Bytes over the budget; 0 when within it."""
        return max(0, self.total - self.budget)


def budget_breakdown(
    expansion: Expansion,
    *,
    org_id: str,
    reader: Reader,
    lookup: Lookup | Mapping[str, OrgFile],
) -> BudgetBreakdown:
    """Break down ``expansion``'s embedded bytes; ``lookup`` and ``reader`` must be the ones
    it was made with, since a removal is worked out by resolving the embeds again."""
    find: Lookup = lookup.get if isinstance(lookup, Mapping) else lookup
    without = _Recount(expansion, org_id, reader, find)
    total = expansion.embedded_bytes
    pulled = _pulled_in(expansion.pieces)
    costs = []
    for note in expansion.notes:
        inner = pulled.get(note.display_path, ())
        # A note with nothing inlined inside it frees exactly its own bytes: taking it out
        # moves no other note. Only one that pulled notes in needs resolving again.
        frees = total - without.total({note.display_path}) if inner else note.bytes
        costs.append(
            NoteCost(
                note.display_path,
                note.title,
                note.hop,
                note.bytes,
                note.bytes / total if total else 0.0,
                inner,
                frees,
            )
        )
    order = sorted(range(len(costs)), key=lambda i: (-costs[i].bytes, i))
    largest = tuple(costs[i] for i in order)
    removal, after = _smallest_removal(largest, without, total, expansion.budget)
    return BudgetBreakdown(largest, total, expansion.budget, removal, after)


def _smallest_removal(
    largest: tuple[NoteCost, ...], recount: _Recount, total: int, budget: int
) -> tuple[tuple[str, ...], int]:
    """The shortest run of the largest notes whose removal brings ``total`` within budget.

    Removals are counted exactly, one more note at a time: removing a note can, rarely, move
    another to an earlier hop where it pulls in more, so the sizes alone cannot tell.
    """
    if total <= budget:
        return (), total
    removed: list[str] = []
    after = total
    for cost in largest:
        removed.append(cost.path)
        after = recount.total(set(removed))
        if after <= budget:
            break
    return tuple(removed), after


def _pulled_in(pieces: tuple[Piece, ...]) -> dict[str, tuple[str, ...]]:
    """For each note inlined at hop 1, the notes inlined inside it (at hop 2)."""
    found: dict[str, tuple[str, ...]] = {}
    for piece in pieces:
        if isinstance(piece, NotePiece):
            inner = tuple(p.path for p in piece.body if isinstance(p, NotePiece))
            if inner:
                found[piece.path] = inner
    return found


class _Recount:
    """The embedded bytes of the same Task with some notes out of reach.

    Only the order of the Task's embeds matters to what is inlined, not the text around them,
    so the Task is replaced by its embeds alone: far less to scan than 256 KB of prose.
    """

    def __init__(self, expansion: Expansion, org_id: str, reader: Reader, lookup: Lookup) -> None:
        # An embed's path never holds brackets or line breaks; an empty one (only spaces)
        # must stay an embed, so it is written as one space.
        self.skeleton = "".join(f"![[{path or ' '}]]" for path in expansion.embeds)
        self.org_id = org_id
        self.reader = reader
        self.lookup = lookup

    def total(self, removed: Collection[str]) -> int:
        def find(path: str) -> OrgFile | None:
            found = self.lookup(path)
            return None if found is None or found.display_path in removed else found

        again = expand_embeds(self.skeleton, org_id=self.org_id, reader=self.reader, lookup=find)
        return again.embedded_bytes
