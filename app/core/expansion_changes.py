"""What changed between two expansions of a Task, and where each change comes from.

Two expanded Tasks (a run's, as it got it, and what a run would get now; or two runs') are
diffed line by line (``diff_model``). Each changed block is then told apart by where its
lines stand: in the Task's own text, or inside a note's inlined element (the innermost one).
A note's element lines (``<name path=… level=…>`` and ``</name>``) belong to the file that
embeds it, since that is where the embed is written; the lines between them belong to the
note. Each source carries its version on both sides and whether its text changed (by
hash), so a block inside the Task's text while the Task itself is unchanged reads as what
it is: an embed there resolving differently (a note now unreachable, deleted, or moved).

A side is built from an ``Expansion`` (exact) or from a run: its expanded text and its
``task_source``, whose notes are listed in the order their elements open. The elements are
then found by their opening lines, which the note's path fixes; text that itself holds a
copy of such an element line could mislead it, and nothing else can.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from app.core.diff_model import Chunk, SideBySide, build_diff
from app.core.expander import (
    CollectionPiece,
    Expansion,
    MarkerPiece,
    NotePiece,
    Piece,
    RepeatPiece,
    TextPiece,
    element_name,
    escape_attr,
    level_of,
    marker,
)
from app.core.models import sha256_hex

SourceKind = Literal["task", "note"]


@dataclass(frozen=True, slots=True)
class NoteState:
    """A note as one side inlined it."""

    path: str
    version: int | None
    content_hash: str


@dataclass(frozen=True, slots=True)
class NoteSpan:
    """The lines ``[first, end)`` (0-based) of a note's inlined text in one side."""

    path: str
    first: int
    end: int


@dataclass(frozen=True, slots=True)
class ExpandedSide:
    """One expansion: its text, the Task's version and hash, the notes it inlined, and
    where each note's text stands in it. ``exact`` is False when the spans were found by
    reading the text and some element could not be found."""

    text: str
    task_version: int | None
    task_hash: str
    notes: tuple[NoteState, ...]
    spans: tuple[NoteSpan, ...]
    exact: bool = True


@dataclass(frozen=True, slots=True)
class ChangeSource:
    """Where a change comes from: the Task, or a note; versions are None on a side that
    does not have it; ``changed`` is True when its text differs between the sides."""

    kind: SourceKind
    path: str
    old_version: int | None
    new_version: int | None
    changed: bool


@dataclass(frozen=True, slots=True)
class ChangedBlock:
    chunk: Chunk
    sources: tuple[ChangeSource, ...]


@dataclass(frozen=True, slots=True)
class ExpansionChanges:
    diff: SideBySide
    blocks: tuple[ChangedBlock, ...]
    task: ChangeSource
    notes: tuple[ChangeSource, ...]  # every note either side inlined, in first-seen order

    @property
    def changed_notes(self) -> tuple[ChangeSource, ...]:
        return tuple(n for n in self.notes if n.changed)


# ---------------------------------------------------------------- sides


def side_from_expansion(expansion: Expansion, *, task_version: int, task_text: str) -> ExpandedSide:
    """The side of an expansion made now: the note spans come from its pieces."""
    spans: list[NoteSpan] = []
    _spans_of(expansion.pieces, 0, expansion.text, spans)
    notes = tuple(NoteState(n.display_path, n.version, n.content_hash) for n in expansion.notes)
    return ExpandedSide(expansion.text, task_version, sha256_hex(task_text), notes, tuple(spans))


def _spans_of(pieces: tuple[Piece, ...], at: int, text: str, out: list[NoteSpan]) -> int:
    """Walk ``pieces`` laid out from offset ``at`` of ``text``; returns where they end."""
    for piece in pieces:
        if isinstance(piece, NotePiece):
            head = _head(piece.path)
            body_start = at + len(head)
            body_end = _spans_of(piece.body, body_start, text, out)
            out.append(_span(text, piece.path, body_start, body_end))
            at = body_end + len(f"\n</{piece.name}>")
        else:
            at += len(_rendered(piece))
    return at


def _head(path: str) -> str:
    """The line a note's element opens with (EXPANSION.md 4); its path fixes it."""
    return f'<{element_name(path)} path="{escape_attr(path)}" level="{level_of(path)}">\n'


def _rendered(piece: Piece) -> str:
    if isinstance(piece, TextPiece):
        return piece.text
    if isinstance(piece, RepeatPiece):
        return piece.title
    if isinstance(piece, CollectionPiece):
        return piece.name
    assert isinstance(piece, MarkerPiece)
    return marker(piece.path)


def side_from_run(expanded_text: str, task_source: Mapping[str, Any]) -> ExpandedSide:
    """The side of a run, from the Task as it got it and its ``task_source``; a field the
    source lacks or garbles reads as unknown (None, or empty), never as an error."""
    notes = tuple(
        NoteState(
            _text(n.get("display_path")), _version(n.get("version")), _text(n.get("content_hash"))
        )
        for n in task_source.get("notes") or ()
        if isinstance(n, Mapping)
    )
    spans, exact = _find_spans(expanded_text, [n.path for n in notes])
    return ExpandedSide(
        expanded_text,
        _version(task_source.get("version")),
        _text(task_source.get("hash")),
        notes,
        spans,
        exact,
    )


def _version(value: object) -> int | None:
    return value if type(value) is int else None


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _find_spans(text: str, paths: list[str]) -> tuple[tuple[NoteSpan, ...], bool]:
    """Find each note's element in ``text``; the notes open in the order given."""
    spans: list[NoteSpan] = []
    stack: list[tuple[str, int]] = []  # (path, body start) of the elements open at ``pos``
    pos = 0

    def close_before(limit: int) -> None:
        nonlocal pos
        while stack:
            path, body = stack[-1]
            end = text.find(f"\n</{element_name(path)}>", pos)
            if end < 0 or end >= limit:
                return
            stack.pop()
            spans.append(_span(text, path, body, end))
            pos = end + len(f"\n</{element_name(path)}>")

    for path in paths:
        head = _head(path)
        at = text.find(head, pos)
        close_before(at if at >= 0 else len(text) + 1)
        if at < 0:
            return tuple(spans), False
        stack.append((path, at + len(head)))
        pos = at + len(head)
    close_before(len(text) + 1)
    return tuple(spans), not stack


def _span(text: str, path: str, body_start: int, body_end: int) -> NoteSpan:
    first = text.count("\n", 0, body_start)
    last = first + text.count("\n", body_start, body_end)
    return NoteSpan(path, first, last + 1)


# ---------------------------------------------------------------- the comparison


def compare_expansions(old: ExpandedSide, new: ExpandedSide) -> ExpansionChanges:
    """Diff two expansions and say, for each changed block, where it comes from."""
    diff = build_diff(old.text, new.text)
    old_notes = {n.path: n for n in old.notes}
    new_notes = {n.path: n for n in new.notes}
    task = ChangeSource(
        "task", "", old.task_version, new.task_version, old.task_hash != new.task_hash
    )
    sources: dict[str, ChangeSource] = {}
    for path in [*old_notes, *(p for p in new_notes if p not in old_notes)]:
        before, after = old_notes.get(path), new_notes.get(path)
        sources[path] = ChangeSource(
            "note",
            path,
            before.version if before else None,
            after.version if after else None,
            before is None or after is None or before.content_hash != after.content_hash,
        )
    old_lines = _line_owners(old, diff.old_line_count)
    new_lines = _line_owners(new, diff.new_line_count)
    blocks = []
    for chunk in diff.changes:
        owners = [*old_lines[chunk.old_start : chunk.old_end]]
        owners += new_lines[chunk.new_start : chunk.new_end]
        found = list(dict.fromkeys(owners))  # first-seen order, each once
        blocks.append(ChangedBlock(chunk, tuple(task if o is None else sources[o] for o in found)))
    return ExpansionChanges(diff, tuple(blocks), task, tuple(sources.values()))


def _line_owners(side: ExpandedSide, count: int) -> list[str | None]:
    """For each line, the path of the innermost note holding it; None for the Task."""
    owners: list[str | None] = [None] * count
    # Outer elements end after the ones nested in them, so spans are laid longest first.
    for span in sorted(side.spans, key=lambda s: s.first - s.end):
        for line in range(span.first, min(span.end, count)):
            owners[line] = span.path
    return owners
