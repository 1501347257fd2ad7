"""The impact panel's rows: one agent each, its budget before → after and what changes."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from app.core.limits import EMBED_BUDGET_BYTES
from app.core.note_uses import NoteImpact

COLUMNS = ("Agent", "Hop", "Budget before → after", "Prompt", "Unreachable embeds")
Index = QModelIndex | QPersistentModelIndex


def budget_text(row: NoteImpact) -> str:
    over = " (over 64 KB)" if row.over_after else ""
    return f"{row.bytes_before:,} → {row.bytes_after:,} of {EMBED_BUDGET_BYTES:,} bytes{over}"


def impact_summary(rows: list[NoteImpact]) -> str:
    """ "Changes the prompt of 37 agents; 3 would go over 64 KB; 1 gains an unreachable embed"."""
    changed = sum(1 for r in rows if r.prompt_changes)
    over = sum(1 for r in rows if r.goes_over)
    marked = sum(1 for r in rows if r.gains_marker)
    agents = "agent" if changed == 1 else "agents"
    parts = [f"Changes the prompt of {changed} {agents}"]
    parts.append(f"{over} would go over 64 KB")
    gains = "gains" if marked == 1 else "gain"
    parts.append(f"{marked} {gains} an unreachable embed")
    return "; ".join(parts)


class ImpactModel(QAbstractTableModel):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[NoteImpact] = []

    def set_rows(self, rows: list[NoteImpact]) -> None:
        self.beginResetModel()
        # The ones an operator must look at first: over budget, then a new marker.
        self.rows = sorted(rows, key=lambda r: (not r.goes_over, not r.gains_marker, r.agent_id))
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or role != Qt.ItemDataRole.DisplayRole:
            return None
        row = self.rows[index.row()]
        column = index.column()
        if column == 0:
            return f"{row.name} ({row.agent_id})"
        if column == 1:
            return str(row.hop)
        if column == 2:
            return budget_text(row)
        if column == 3:
            return "changes" if row.prompt_changes else "the same"
        before, after = len(row.broken_before), len(row.broken_after)
        return f"{before} → {after}" if before != after else str(after)
