"""A merge's marks in the Task editor: my changes, theirs, and each conflict, kept in place
while the operator edits (the marks ride on QTextCursors, which the document moves)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit

from app.core.merge_layout import Mark, MarkKind, has_markers

# Background tints by kind; the conflict's marker lines and the banner's counts say the same
# without colour. Mine is blue, theirs amber, a conflict red, as in the merge banner.
TINTS: dict[MarkKind, QColor] = {
    "mine": QColor("#dbe9fb"),
    "theirs": QColor("#fbedd0"),
    "both": QColor("#e6e9ef"),
    "conflict": QColor("#f9d9d9"),
    "conflict_mine": QColor("#dbe9fb"),
    "conflict_theirs": QColor("#fbedd0"),
}
RESOLVED_TINT = QColor("#e3f5e3")
"""A conflict once resolved, by a choice or by hand."""


def utf16_positions(text: str, indices: Sequence[int]) -> list[int]:
    """The editor's positions (UTF-16 code units) of Python string ``indices`` (ascending)."""
    if text.isascii():
        return list(indices)
    out: list[int] = []
    last = position = 0
    for index in indices:
        position += len(text[last:index].encode("utf-16-le")) // 2
        out.append(position)
        last = index
    return out


@dataclass(slots=True)
class _Placed:
    kind: MarkKind
    conflict: int
    cursor: QTextCursor  # selects the mark's text; the document keeps it in place


class MergeMarks:
    """Paints the marks of one merge on ``editor`` (as extra selections) until ``clear()``."""

    def __init__(self, editor: QPlainTextEdit) -> None:
        self._editor = editor
        self._placed: list[_Placed] = []
        self._resolved: set[int] = set()

    @property
    def active(self) -> bool:
        return bool(self._placed)

    def show(self, text: str, marks: Sequence[Mark]) -> None:
        """Marks ``marks`` of ``text``, which the editor holds now."""
        ends = utf16_positions(text, sorted({i for m in marks for i in (m.start, m.end)}))
        index_of = dict(
            zip(sorted({i for m in marks for i in (m.start, m.end)}), ends, strict=True)
        )
        document = self._editor.document()
        self._placed = []
        self._resolved = set()
        for mark in marks:
            cursor = QTextCursor(document)
            cursor.setPosition(index_of[mark.start])
            cursor.setPosition(index_of[mark.end], QTextCursor.MoveMode.KeepAnchor)
            self._placed.append(_Placed(mark.kind, mark.conflict, cursor))
        self.repaint()

    def clear(self) -> None:
        self._placed = []
        self._resolved = set()
        self._editor.setExtraSelections([])

    # ---------------------------------------------------------------- conflicts

    def conflict_count(self) -> int:
        return sum(1 for p in self._placed if p.kind == "conflict")

    def conflict_cursor(self, conflict: int) -> QTextCursor | None:
        for placed in self._placed:
            if placed.kind == "conflict" and placed.conflict == conflict:
                return QTextCursor(placed.cursor)
        return None

    def is_open(self, conflict: int) -> bool:
        """Not resolved yet: no choice made, and its marker lines still stand."""
        if conflict in self._resolved:
            return False
        cursor = self.conflict_cursor(conflict)
        return cursor is not None and has_markers(_plain(cursor))

    def open_conflicts(self) -> list[int]:
        return [
            p.conflict for p in self._placed if p.kind == "conflict" and self.is_open(p.conflict)
        ]

    def conflict_at(self, position: int) -> int | None:
        """The conflict whose text holds ``position``, if any."""
        for placed in self._placed:
            cursor = placed.cursor
            if (
                placed.kind == "conflict"
                and cursor.selectionStart() <= position <= cursor.selectionEnd()
            ):
                return placed.conflict
        return None

    def replace_conflict(self, conflict: int, text: str) -> None:
        """Puts ``text`` in place of the conflict's whole block, as one undoable edit."""
        placed = next(p for p in self._placed if p.kind == "conflict" and p.conflict == conflict)
        cursor = placed.cursor
        start = cursor.selectionStart()
        cursor.beginEditBlock()
        cursor.insertText(text)
        cursor.endEditBlock()
        end = cursor.position()
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        self._resolved.add(conflict)
        # Its parts' texts are gone: their marks would be empty or stray.
        self._placed = [
            p for p in self._placed if not (p.conflict == conflict and p.kind != "conflict")
        ]
        self.repaint()

    # ---------------------------------------------------------------- painting

    def repaint(self) -> None:
        selections: list[QTextEdit.ExtraSelection] = []
        for placed in self._placed:
            closed = placed.kind == "conflict" and not self.is_open(placed.conflict)
            selection = QTextEdit.ExtraSelection()
            fmt = QTextCharFormat()
            fmt.setBackground(RESOLVED_TINT if closed else TINTS[placed.kind])
            fmt.setProperty(QTextFormat.Property.FullWidthSelection, False)
            selection.format = fmt
            selection.cursor = QTextCursor(placed.cursor)
            selections.append(selection)
        self._editor.setExtraSelections(selections)


def _plain(cursor: QTextCursor) -> str:
    # selectedText() writes line breaks as U+2029.
    return cursor.selectedText().replace("\u2029", "\n")
