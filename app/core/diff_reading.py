"""A compare as a screen reader reads it: each changed line a row, each change a sentence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.core.diff_model import Chunk, SideBySide, display_line

RowKind = Literal["removed", "added", "changed"]


@dataclass(frozen=True, slots=True)
class ReadRow:
    """One line pair of a change: line numbers are 1-based, None on the side without one."""

    change: int  # index into ``SideBySide.changes``
    old_line: int | None
    new_line: int | None
    kind: RowKind
    old_text: str
    new_text: str


def change_rows(model: SideBySide, old: str, new: str) -> list[ReadRow]:
    """Every changed line of ``model`` (built from ``old`` and ``new``), change by change.

    Within a change, old and new lines are paired in order, as the compare view shows them
    side by side: a pair is "changed", an old line without a partner "removed", a new line
    without one "added"."""
    old_lines, new_lines = old.split("\n"), new.split("\n")
    rows: list[ReadRow] = []
    for index, chunk in enumerate(model.changes):
        rows.extend(_chunk_rows(index, chunk, old_lines, new_lines))
    return rows


def _chunk_rows(
    index: int, chunk: Chunk, old_lines: list[str], new_lines: list[str]
) -> list[ReadRow]:
    rows = []
    for offset in range(chunk.rows):
        old_at = chunk.old_start + offset if chunk.old_start + offset < chunk.old_end else None
        new_at = chunk.new_start + offset if chunk.new_start + offset < chunk.new_end else None
        kind: RowKind = "changed"
        if new_at is None:
            kind = "removed"
        elif old_at is None:
            kind = "added"
        rows.append(
            ReadRow(
                change=index,
                old_line=None if old_at is None else old_at + 1,
                new_line=None if new_at is None else new_at + 1,
                kind=kind,
                old_text="" if old_at is None else display_line(old_lines[old_at]),
                new_text="" if new_at is None else display_line(new_lines[new_at]),
            )
        )
    return rows


def _lines(count: int, word: str) -> str:
    return f"1 line {word}" if count == 1 else f"{count} lines {word}"


def change_sentence(model: SideBySide, index: int) -> str:
    """What change ``index`` does, said once when it becomes current:
    "Change 2 of 5: line 12 changed, 1 line added"."""
    chunk = model.changes[index]
    old_count = chunk.old_end - chunk.old_start
    new_count = chunk.new_end - chunk.new_start
    paired = min(old_count, new_count)
    parts = []
    if paired:
        parts.append(_lines(paired, "changed"))
    if old_count > paired:
        parts.append(_lines(old_count - paired, "removed"))
    if new_count > paired:
        parts.append(_lines(new_count - paired, "added"))
    where = _where(chunk)
    return f"Change {index + 1} of {model.change_count}, {where}: {', '.join(parts)}"


def _where(chunk: Chunk) -> str:
    """Where a change is, in the new text's line numbers when it has lines there."""
    if chunk.new_end > chunk.new_start:
        first, last, side = chunk.new_start + 1, chunk.new_end, "right"
    else:
        first, last, side = chunk.old_start + 1, chunk.old_end, "left"
    span = f"line {first}" if first == last else f"lines {first} to {last}"
    return f"{span} on the {side}"


def row_sentence(row: ReadRow) -> str:
    """One row as a sentence: "Line 12 changed: was “…”, now “…”"."""
    if row.kind == "removed":
        return f"Line {row.old_line} on the left removed: {row.old_text}"
    if row.kind == "added":
        return f"Line {row.new_line} on the right added: {row.new_text}"
    return (
        f"Line {row.old_line} changed to line {row.new_line}:"
        f" was {row.old_text}, now {row.new_text}"
    )
