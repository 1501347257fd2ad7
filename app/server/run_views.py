"""What a caller may see of a run, and of the embed status: nothing of a file they can't read.

A run is expanded as its agent, so its prompt can hold notes the caller may not read. The
answer to the caller withholds them: each inlined note, collection name or repeated title
from a file the caller can't read (by that file's access list now; a deleted file counts as
unreadable) is replaced by ``<withheld path="…" />``, and so is everything inside it, since
a note's embeds are part of its text. ``task_source`` then lists only the notes and
collections the caller can see. Operators read every file of the org, and an agent every
file its own runs inline, so both get the run whole.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.core.expander import (
    CollectionPiece,
    Expansion,
    MarkerPiece,
    NotePiece,
    Piece,
    RepeatPiece,
    TextPiece,
    escape_attr,
    marker,
)
from app.core.models import BrokenEmbed
from app.server.callers import Caller
from app.server.database import Transaction
from app.server.run_records import RunRecord, RunSummary, Span

Readable = Callable[[str], bool]
"""Whether the caller may read the org file at a display path."""


def readable_by(tx: Transaction, caller: Caller) -> Readable:
    """Whether ``caller`` may read the org file at a path now (a deleted one: no)."""

    def readable(path: str) -> bool:
        if caller.is_operator:
            return True
        found = tx.file(path)
        return found is not None and caller.can_read(found.access)

    return readable


def withheld(path: str) -> str:
    return f'<withheld path="{escape_attr(path)}" />'


def file_spans(expansion: Expansion, offset: int) -> tuple[Span, ...] | None:
    """Where each file's text sits in a prompt whose expanded Task starts at ``offset``;
    None if the pieces don't add up to the text (then nothing is shown to a non-operator)."""
    spans: list[Span] = []
    end = _walk(expansion.pieces, offset, -1, spans)
    if end - offset != len(expansion.text):
        return None
    return tuple(spans)


def _walk(pieces: tuple[Piece, ...], pos: int, parent: int, spans: list[Span]) -> int:
    for piece in pieces:
        if isinstance(piece, TextPiece):
            pos += len(piece.text)
        elif isinstance(piece, MarkerPiece):
            pos += len(marker(piece.path))
        elif isinstance(piece, CollectionPiece | RepeatPiece):
            shown = piece.name if isinstance(piece, CollectionPiece) else piece.title
            spans.append(Span(pos, pos + len(shown), piece.path, parent))
            pos += len(shown)
        else:
            assert isinstance(piece, NotePiece)
            head = f'<{piece.name} path="{escape_attr(piece.path)}" level="{piece.level}">\n'
            index = len(spans)
            spans.append(Span(pos, pos, piece.path, parent))  # its end is known after the body
            inner_end = _walk(piece.body, pos + len(head), index, spans)
            end = inner_end + len(f"\n</{piece.name}>")
            spans[index] = Span(pos, end, piece.path, parent)
            pos = end
    return pos


def _task_bounds(prompt: str) -> tuple[int, int]:
    start = prompt.find("<task>\n")
    end = prompt.rfind("\n</task>")
    if start < 0 or end < start:
        return 0, len(prompt)
    return start + len("<task>\n"), end


def run_view(run: RunRecord, readable: Readable, *, whole: bool) -> dict[str, Any]:
    """The run's body for one caller (``whole``: an operator or the run's own agent)."""
    prompt, source = run.system_prompt, run.task_source
    if not whole:
        spans = run.spans
        if spans is None:  # a run stored before spans were kept: its Task as a whole
            start, end = _task_bounds(prompt)
            spans = (Span(start, end, source.get("display_path", ""), -1),)
            readable = _nothing
        prompt, visible = _withhold(prompt, spans, readable)
        source = dict(source)
        source["notes"] = [n for n in source.get("notes", []) if n.get("display_path") in visible]
        source["collections"] = [c for c in source.get("collections", []) if c in visible]
    return {
        "id": run.id,
        "system_prompt": prompt,
        "task_source": source,
        "agent_id": run.agent_id,
        "created_at": run.created_at,
    }


def run_summary_view(run: RunSummary, readable: Readable, *, whole: bool) -> dict[str, Any]:
    """One entry of the runs list for one caller: no prompt, and a ``task_source`` that
    names only what the same caller would see of the run whole (``run_view``)."""
    source = run.task_source
    if not whole:
        spans = run.spans
        if spans is None:  # a run stored before spans were kept: nothing inside shows
            visible: set[str] = set()
        else:
            visible = _visible(spans, readable)[0]
        source = dict(source)
        source["notes"] = [n for n in source.get("notes", []) if n.get("display_path") in visible]
        source["collections"] = [c for c in source.get("collections", []) if c in visible]
    return {
        "id": run.id,
        "agent_id": run.agent_id,
        "created_at": run.created_at,
        "created_by_id": run.created_by_id,
        "created_by_name": run.created_by_name,
        "task_source": source,
    }


def _nothing(_path: str) -> bool:
    return False


def _withhold(prompt: str, spans: tuple[Span, ...], readable: Readable) -> tuple[str, set[str]]:
    """The prompt with each outermost unreadable span replaced; the paths left visible."""
    visible, cuts = _visible(spans, readable)
    if not cuts:
        return prompt, visible
    parts: list[str] = []
    pos = 0
    for cut in sorted(cuts, key=lambda s: s.start):
        parts.append(prompt[pos : cut.start])
        parts.append(withheld(cut.path))
        pos = cut.end
    parts.append(prompt[pos:])
    return "".join(parts), visible


def _visible(spans: tuple[Span, ...], readable: Readable) -> tuple[set[str], list[Span]]:
    """The paths left in view, and the outermost spans to withhold."""
    shown: list[bool] = []
    visible: set[str] = set()
    cuts: list[Span] = []
    for span in spans:  # parents come before their children
        parent_shown = span.parent < 0 or shown[span.parent]
        here = parent_shown and readable(span.path)
        shown.append(here)
        if here:
            visible.add(span.path)
        elif parent_shown:
            cuts.append(span)
    return visible, cuts


def visible_broken_embeds(
    broken: tuple[BrokenEmbed, ...], task_path: str, readable: Readable
) -> list[dict[str, Any]]:
    """The embed status a caller may see: an embed inside a note they can't read is that
    note's text, so it is left out; the Task's own embeds are the Task's text, readable by all."""
    return [b.to_json() for b in broken if b.in_path == task_path or readable(b.in_path)]
