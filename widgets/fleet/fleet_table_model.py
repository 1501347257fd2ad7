"""The fleet table's rows: one agent per row over ``HealthRow``s, sorted on raw values."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from app.core.fleet_models import EMBEDDED, PROPOSALS, RUNS, UNREACHABLE, HealthRow
from app.core.limits import EMBED_BUDGET_BYTES
from app.core.shape_codes import shape_words

COLUMNS = (
    "Agent",
    "Guild",
    "Task KB",
    "Embedded KB of 64",
    "Unreachable",
    "Shape",
    "Proposals",
    "Last run",
    "Prompt changed",
)
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
AGENT_ID_ROLE = Qt.ItemDataRole.UserRole + 2
OVER = QColor(220, 60, 60, 90)
NEAR = QColor(230, 170, 40, 90)
Index = QModelIndex | QPersistentModelIndex
UNKNOWN = "—"
UNKNOWN_TIP = "This server doesn't tell this: it has only the spec's endpoints."
UNCHECKED_TIP = (
    "Not checked: this agent's guild isn't known. Give it in “Open agent by id…” to check."
)
COLUMN_FACT = {3: EMBEDDED, 4: UNREACHABLE, 6: PROPOSALS, 7: RUNS, 8: RUNS}
"""The columns that show a fact a row may not know (``HealthRow.unknown``)."""


def _kb(size: int) -> str:
    return f"{size / 1024:.1f}"


def _changed(value: bool | None) -> str:
    return "no runs" if value is None else "yes" if value else ""


class FleetTableModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[HealthRow] = []  # every agent, in the table's order
        self._guilds: dict[str, str] = {}
        self._haystacks: list[str] = []
        self._words: list[str] = []
        self._shown: list[int] = []  # the rows the filter keeps, as indices into _rows
        self._any_unknown = False  # a spec-only server's rows: sort keys then say so

    def set_rows(self, rows: list[HealthRow], guild_names: dict[str, str] | None = None) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self._any_unknown = any(r.unknown for r in self._rows)
        self._guilds = dict(guild_names or {})
        # What a filter looks in, made once: a key press then tests one string per row.
        # Words, not figures: "1" would otherwise match every size.
        self._haystacks = [
            " ".join(
                [r.name, r.id, self._display(r, 1), r.guild_id, *r.shape]
                + [shape_words(code) for code in r.shape]
            ).casefold()
            for r in self._rows
        ]
        self._shown = self._kept(self._words)
        self.endResetModel()

    def _kept(self, words: list[str]) -> list[int]:
        if not words:
            return list(range(len(self._rows)))
        return [i for i, h in enumerate(self._haystacks) if all(w in h for w in words)]

    def set_filter(self, words: list[str]) -> None:
        """Keeps the rows holding every word (any case): one pass in Python, then a reset,
        so the view asks only for the rows it paints (no call per row, per key)."""
        if words == self._words:
            return
        self.beginResetModel()
        self._words = words
        self._shown = self._kept(words)
        self.endResetModel()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sorted here, in one ``sorted`` over plain keys: a proxy sorting through ``data()``
        calls Python twice per comparison, 120,000 times at 5,000 agents."""
        if not 0 <= column < len(COLUMNS) or not self._rows:
            return
        keys = [self._sort_key(row, column) for row in self._rows]
        descending = order == Qt.SortOrder.DescendingOrder
        # Stable both ways: equal keys keep their order (name order after a name sort).
        new_order = sorted(range(len(keys)), key=keys.__getitem__, reverse=descending)
        self.layoutAboutToBeChanged.emit()
        before = [self._rows[i].id for i in self._shown]
        self._rows = [self._rows[i] for i in new_order]
        self._haystacks = [self._haystacks[i] for i in new_order]
        self._shown = self._kept(self._words)
        now = {self._rows[i].id: r for r, i in enumerate(self._shown)}
        kept = self.persistentIndexList()
        self.changePersistentIndexList(
            kept, [self.index(now[before[i.row()]], i.column()) for i in kept]
        )
        self.layoutChanged.emit()

    def row_at(self, row: int) -> HealthRow:
        """The agent shown at ``row``."""
        return self._rows[self._shown[row]]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._shown)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self._rows[self._shown[index.row()]]
        column = index.column()
        if row.unknown and COLUMN_FACT.get(column) in row.unknown:
            return self._unknown_data(column, role)
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, column)
        if role == SORT_ROLE:
            return self._sort_key(row, column)
        if role == AGENT_ID_ROLE:
            return row.id
        if role == Qt.ItemDataRole.BackgroundRole and column == 3:
            if row.over_budget:
                return QBrush(OVER)
            if row.near_budget:
                return QBrush(NEAR)
        if role == Qt.ItemDataRole.ToolTipRole and column == 3 and row.over_budget:
            over = row.embedded_bytes - EMBED_BUDGET_BYTES
            return f"Over the 64 KB budget by {over:,} bytes: a run is refused."
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (2, 3, 4, 6):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    @staticmethod
    def _unknown_data(column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return UNKNOWN
        if role == Qt.ItemDataRole.ToolTipRole:
            return UNCHECKED_TIP if COLUMN_FACT[column] == UNREACHABLE else UNKNOWN_TIP
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def _display(self, row: HealthRow, column: int) -> str:
        match column:
            case 0:
                return row.name
            case 1:
                return self._guilds.get(row.guild_id, row.guild_id)
            case 2:
                return _kb(row.task_bytes)
            case 3:
                return _kb(row.embedded_bytes)
            case 4:
                return str(row.broken_embeds) if row.broken_embeds else ""
            case 5:
                return ", ".join(shape_words(code) for code in row.shape)
            case 6:
                return str(row.open_proposals) if row.open_proposals else ""
            case 7:
                return row.last_run_at or ""
            case _:
                return _changed(row.prompt_changed_since_run)

    def _sort_key(self, row: HealthRow, column: int) -> Any:
        fact = COLUMN_FACT.get(column) if self._any_unknown else None
        if fact is not None:  # what isn't known sorts before every known value
            return (fact not in row.unknown, self._known_key(row, column))
        return self._known_key(row, column)

    def _known_key(self, row: HealthRow, column: int) -> Any:
        match column:
            case 2:
                return row.task_bytes
            case 3:
                return row.embedded_bytes
            case 4:
                return row.broken_embeds
            case 5:
                return len(row.shape)
            case 6:
                return row.open_proposals
            case 8:
                return (
                    -1
                    if row.prompt_changed_since_run is None
                    else int(row.prompt_changed_since_run)
                )
            case _:
                return self._display(row, column).casefold()
