"""References: every embed and named file a run meets, as a tree by hop, with what it does and why.

The tree is read off the expander's own result (``Expansion.pieces``), so it cannot disagree
with what a run gets: the same notes inlined with the same bytes, the same markers in the
same order. What it adds is where each one stands in the file that holds it, the display
paths written without ``![[…]]`` (named files, which a run gets as text), the embeds a hop-2
note keeps as text (hop 3), and for each marker the operator-side reason
(``app.core.marker_reasons``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from app.core.expander import (
    EMBED_RE,
    CollectionPiece,
    Expansion,
    InlinedNote,
    MarkerPiece,
    NotePiece,
    Piece,
    RepeatPiece,
    TextPiece,
    embed_path,
    expand_embeds,
)
from app.core.limits import EMBED_BUDGET_BYTES, EMBED_DEPTH
from app.core.marker_reasons import EarlierFile, MarkerReason, marker_reason
from app.core.models import Kind, Level, OrgFile, Reader
from app.core.named_files import named_mentions

Outcome = Literal["inlined", "repeat", "collection", "marker", "text", "named"]
OUTCOMES: tuple[Outcome, ...] = ("inlined", "repeat", "collection", "marker", "text", "named")
Lookup = Callable[[str], OrgFile | None]
_Embed = tuple[int, int, str, Piece | None]  # start, end, path, what the expander made of it


class Position(NamedTuple):
    """Where a reference stands in the text of the file holding it (the Task or a note as
    stored): character offsets ``[offset, end)``, and the 1-based line and column of
    ``offset`` (lines end at ``\\n``; columns count characters)."""

    offset: int
    end: int
    line: int
    column: int


class Reference(NamedTuple):
    """One embed or named file, what the run does with it, and (for a marker) why.

    ``hop``: 1 in the Task, 2 in a note the Task inlines, 3 in a note inlined at hop 2.
    ``in_path``: the display path of the file holding it. ``bytes`` (inlined only): the
    note's stored size in UTF-8 bytes, as the budget counts it. ``title``: an inlined note's
    title, the text a repeat puts in place, a collection's name. ``kind`` (named only): what
    the path names now, None when nothing. ``children``: an inlined note's own references.

    A named tuple, not a frozen dataclass: a 256 KB Task makes hundreds, and a tuple is
    built several times faster, which keeps References within twice the expander's time.
    """

    path: str
    hop: int
    in_path: str
    position: Position
    outcome: Outcome
    bytes: int | None = None
    title: str = ""
    version: int | None = None
    level: Level | None = None
    kind: Kind | None = None
    reason: MarkerReason | None = None
    children: tuple[Reference, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The command line's JSON object for this reference (docs/REFERENCES.md)."""
        body: dict[str, Any] = {
            "path": self.path,
            "hop": self.hop,
            "in": self.in_path,
            "line": self.position.line,
            "column": self.position.column,
            "offset": self.position.offset,
            "end": self.position.end,
            "outcome": self.outcome,
            "bytes": self.bytes,
            "reason": self.reason.code if self.reason is not None else None,
        }
        if self.outcome == "inlined":
            body.update(title=self.title, version=self.version, level=self.level)
        elif self.outcome in ("repeat", "collection"):
            body["title"] = self.title
        elif self.outcome == "named":
            body["kind"] = self.kind
        if self.reason is not None:
            body.update(self.reason.to_json())
        return body


@dataclass(frozen=True, slots=True)
class References:
    """The references of one expansion: the Task's, each holding its inlined note's own."""

    task_path: str
    items: tuple[Reference, ...]
    expansion: Expansion

    def walk(self) -> Iterator[Reference]:
        """Every reference, depth first: the order a run meets them in its text."""
        stack = list(reversed(self.items))
        while stack:
            item = stack.pop()
            yield item
            stack.extend(reversed(item.children))

    @property
    def markers(self) -> tuple[Reference, ...]:
        return tuple(r for r in self.walk() if r.outcome == "marker")

    def to_json(self) -> list[dict[str, Any]]:
        return [r.to_json() for r in self.walk()]


def find_references(
    task_text: str,
    *,
    org_id: str,
    reader: Reader,
    lookup: Lookup | Mapping[str, OrgFile],
    task_path: str = "",
    history: Iterable[EarlierFile] = (),
    budget: int = EMBED_BUDGET_BYTES,
) -> References:
    """Expand ``task_text`` as ``reader`` would get it in a run, and explain every reference.

    ``history``: the notes and collections earlier runs of the agent inlined (see
    ``marker_reasons.earlier_files``), so that a note deleted since is told from one that
    never was. Pure: ``lookup`` is the only way out, and each path is looked up at most a
    few times.
    """
    find: Lookup = lookup.get if isinstance(lookup, Mapping) else lookup
    expansion = expand_embeds(
        task_text, org_id=org_id, reader=reader, lookup=find, task_path=task_path, budget=budget
    )
    return references_of(
        expansion,
        task_text,
        org_id=org_id,
        reader=reader,
        lookup=find,
        task_path=task_path,
        history=history,
    )


def references_of(
    expansion: Expansion,
    task_text: str,
    *,
    org_id: str,
    reader: Reader,
    lookup: Lookup,
    task_path: str = "",
    history: Iterable[EarlierFile] = (),
) -> References:
    """The references of an expansion already made from ``task_text`` with this ``lookup``
    (the preview has one at hand)."""
    walker = _Walker(expansion, org_id, reader, lookup, tuple(history))
    items = walker.holder(task_text, expansion.pieces, 1, task_path)
    return References(task_path, items, expansion)


class _Lines:
    """Line and column of increasing offsets in one text, counted as it goes."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.line = 1

    def position(self, start: int, end: int) -> Position:
        self.line += self.text.count("\n", self.at, start)
        self.at = start
        return Position(start, end, self.line, start - self.text.rfind("\n", 0, start))


def _embeds_of(text: str, pieces: tuple[Piece, ...]) -> list[_Embed]:
    """Each embed of ``text`` with its span and path, and the piece the expander made of it.

    The pieces cover the text in order, text pieces as written; an embed ends at the first
    ``]]`` after its ``![[``, since its path holds no bracket.
    """
    found: list[_Embed] = []
    at = 0
    for piece in pieces:
        if type(piece) is TextPiece:
            at += len(piece.text)
            continue
        end = text.index("]]", at + 3) + 2
        found.append((at, end, embed_path(text[at + 3 : end - 2]), piece))
        at = end
    return found


class _Walker:
    def __init__(
        self,
        expansion: Expansion,
        org_id: str,
        reader: Reader,
        lookup: Lookup,
        history: tuple[EarlierFile, ...],
    ) -> None:
        self.notes: dict[str, InlinedNote] = {n.display_path: n for n in expansion.notes}
        self.org_id = org_id
        self.named_head = f"org/{org_id}/"
        self.reader = reader
        self.lookup = lookup
        self.history = history
        self.kinds: dict[str, Kind | None] = {}

    def holder(
        self, text: str, pieces: tuple[Piece, ...], hop: int, holder: str
    ) -> tuple[Reference, ...]:
        """The references in one file's ``text``, whose expansion is ``pieces``.

        Up to hop 2 the pieces say where each embed stands: they cover the text in order.
        """
        embeds: list[_Embed]
        if hop > EMBED_DEPTH:
            # A hop-2 note's text stays as written: its embeds are found, not resolved.
            embeds = (
                [
                    (m.start(), m.end(), embed_path(m.group(1)), None)
                    for m in EMBED_RE.finditer(text)
                ]
                if "![[" in text
                else []
            )
        else:
            embeds = _embeds_of(text, pieces)
        named = (
            list(named_mentions(text, self.org_id, [(e[0], e[1]) for e in embeds]))
            if self.named_head in text
            else []
        )
        if not embeds and not named:
            return ()  # most notes: one scan at C speed, and nothing to explain
        lines = _Lines(text)
        items: list[Reference] = []
        e = n = 0
        while e < len(embeds) or n < len(named):
            if n == len(named) or (e < len(embeds) and embeds[e][0] < named[n][0]):
                start, end, path, piece = embeds[e]
                e += 1
                position = lines.position(start, end)
                if piece is None:
                    items.append(Reference(path, hop, holder, position, "text"))
                else:
                    items.append(self.resolved(piece, path, hop, holder, position))
            else:
                start, end, path = named[n]
                n += 1
                position = lines.position(start, end)
                items.append(
                    Reference(path, hop, holder, position, "named", kind=self.kind_of(path))
                )
        return tuple(items)

    def resolved(
        self, piece: Piece, path: str, hop: int, holder: str, position: Position
    ) -> Reference:
        if isinstance(piece, NotePiece):
            note = self.notes[piece.path]
            # The expander read the text without its trailing line breaks; no embed or
            # named file can stand in them, so the stored text gives the same matches.
            children = self.holder(note.text, piece.body, hop + 1, piece.path)
            return Reference(
                path,
                hop,
                holder,
                position,
                "inlined",
                bytes=note.bytes,
                title=piece.title,
                version=note.version,
                level=piece.level,
                children=children,
            )
        if isinstance(piece, RepeatPiece):
            return Reference(path, hop, holder, position, "repeat", title=piece.title)
        if isinstance(piece, CollectionPiece):
            return Reference(path, hop, holder, position, "collection", title=piece.name)
        assert isinstance(piece, MarkerPiece)
        reason = marker_reason(
            path, org_id=self.org_id, reader=self.reader, lookup=self.lookup, history=self.history
        )
        return Reference(path, hop, holder, position, "marker", reason=reason)

    def kind_of(self, path: str) -> Kind | None:
        if path not in self.kinds:
            found = self.lookup(path)
            self.kinds[path] = found.kind if found is not None else None
        return self.kinds[path]
