"""The org's open proposals as a table: agent, title, author, age, and whether the Task moved."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from app.core.proposal_models import Proposal
from widgets.common.provenance import exact_time, parse_time, relative_time

_Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("Agent", "Title", "Author", "Age", "Base")
PROPOSAL_ID_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2


def base_text(proposal: Proposal) -> str:
    """ "based on v12, live is v13", or "on the live v13"."""
    if proposal.base_moved:
        return f"based on v{proposal.base_version}, live is v{proposal.live_version}"
    return f"on the live v{proposal.live_version}"


class ProposalTableModel(QAbstractTableModel):
    """Rows of proposals, oldest first as the server lists them; sortable through a proxy."""

    def __init__(self, agent_name: Callable[[str], str], now: Callable[[], datetime] | None = None):
        super().__init__()
        self.rows: list[Proposal] = []
        self._agent_name = agent_name
        self._now = now or (lambda: datetime.now(UTC))
        self._names: list[str] = []
        self._ages: list[str] = []

    def set_proposals(self, proposals: list[Proposal]) -> None:
        self.beginResetModel()
        self.rows = proposals
        now = self._now()
        # Worked out once per list, not per paint: 1,000 rows are painted many times.
        self._names = [self._agent_name(p.agent_id) for p in proposals]
        self._ages = [relative_time(p.created_at, now) for p in proposals]
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        p, column = self.rows[index.row()], index.column()
        if role == PROPOSAL_ID_ROLE:
            return p.id
        if role == Qt.ItemDataRole.DisplayRole:
            return (self._names[index.row()], p.title, p.author_name, self._ages[index.row()],
                    base_text(p))[column]  # fmt: skip
        if role == SORT_ROLE:
            if column == 3:
                when = parse_time(p.created_at)
                return when.timestamp() if when else 0.0
            return self.data(index, Qt.ItemDataRole.DisplayRole)
        if role == Qt.ItemDataRole.ToolTipRole and column == 3:
            return exact_time(p.created_at)
        return None
