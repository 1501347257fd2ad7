"""The fleet table: every agent, sortable and filterable; activating a row opens the agent."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.core.fleet_models import EMBEDDED, UNREACHABLE, HealthRow
from widgets.common.plain_text import plain_label
from widgets.fleet.fleet_table_model import AGENT_ID_ROLE, FleetTableModel


class FleetFilter(QSortFilterProxyModel):
    """The table's proxy, passing its filter and sort to the model, which does both in plain
    Python passes (a C++ proxy calling Python per row, per comparison, is what stalls)."""

    def __init__(self, model: FleetTableModel) -> None:
        super().__init__(model)
        self._model = model
        self.setSourceModel(model)

    def set_text(self, text: str) -> None:
        self._model.set_filter(text.casefold().split())

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self._model.sort(column, order)


def health_summary(rows: list[HealthRow]) -> str:
    """The status line: how many agents, over budget, with unreachable embeds; a count over
    a fact the server doesn't tell is left out, and unchecked agents are said."""
    parts = [f"{len(rows):,} agents"]
    if not any(EMBEDDED in r.unknown for r in rows):
        parts.append(f"{sum(1 for r in rows if r.over_budget):,} over budget")
    checked = [r for r in rows if UNREACHABLE not in r.unknown]
    if checked:
        broken = sum(1 for r in checked if r.broken_embeds)
        unchecked = len(rows) - len(checked)
        tail = f" ({unchecked:,} not checked: guild unknown)" if unchecked else ""
        parts.append(f"{broken:,} with unreachable embeds{tail}")
    elif rows:
        parts.append("embeds not checked: no guild known")
    return " · ".join(parts)


class FleetPanel(QWidget):
    """``show_rows`` fills it; ``agent_activated(agent_id)`` when a row is activated."""

    agent_activated = Signal(str)
    edit_requested = Signal(list)  # the selected agents' ids

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("fleetPanel")
        self.model = FleetTableModel(self)
        self.proxy = FleetFilter(self.model)
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText("Filter agents: name, guild, shape finding…")
        self.filter.setAccessibleName("Filter agents")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.set_text)
        self.table = QTableView(self)
        self.table.setObjectName("fleetTable")
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        # Fixed row heights and column widths: nothing is measured per row at 5,000 agents.
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        header = self.table.horizontalHeader()
        for column in range(self.proxy.columnCount()):  # each title whole: one measure each
            header.resizeSection(
                column, max(header.sectionSize(column), header.sectionSizeHint(column))
            )
        self.table.activated.connect(self._on_activated)
        self.status = plain_label("Loading the fleet…", self)
        self.notice = plain_label("", self)  # what this server can't tell (a spec-only one)
        self.notice.setObjectName("fleetNotice")
        self.notice.setWordWrap(True)
        self.notice.hide()
        self.edit_button = QPushButton("Apply an &edit to the selected agents…", self)
        self.edit_button.setEnabled(False)
        self.edit_button.clicked.connect(lambda: self.edit_requested.emit(self.selected_ids()))
        self.table.selectionModel().selectionChanged.connect(
            lambda *_: self.edit_button.setEnabled(bool(self.selected_ids()))
        )
        top = QHBoxLayout()
        top.addWidget(self.filter, 1)
        top.addWidget(self.edit_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.notice)
        layout.addWidget(self.status)

    def show_rows(self, rows: list[HealthRow], guild_names: dict[str, str] | None = None) -> None:
        self.model.set_rows(rows, guild_names)
        self.status.setText(health_summary(rows))

    def show_notice(self, text: str) -> None:
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    def selected_ids(self) -> list[str]:
        rows = self.table.selectionModel().selectedRows()
        return [str(index.data(AGENT_ID_ROLE)) for index in rows]

    def show_failure(self, text: str) -> None:
        self.status.setText(text)

    def _on_activated(self, index: QModelIndex) -> None:
        agent_id = index.data(AGENT_ID_ROLE)
        if isinstance(agent_id, str):
            self.agent_activated.emit(agent_id)
