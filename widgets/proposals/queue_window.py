"""View › Proposals: every open proposal of the org, oldest first; a row opens its review."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QTableView, QVBoxLayout, QWidget

from app.core.proposal_models import Proposal
from app.core.user_message import UserMessage
from app.desk.proposal_queue import ProposalQueue
from widgets.common.plain_text import plain_label
from widgets.proposals.queue_model import PROPOSAL_ID_ROLE, SORT_ROLE, ProposalTableModel


class QueueWindow(QWidget):
    """The queue as a sortable table; ``open_requested(proposal id)`` on Enter or double-click."""

    open_requested = Signal(str)

    def __init__(
        self, queue: ProposalQueue, agent_name: Callable[[str], str], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("ProposalQueue")
        self.setWindowTitle("Proposals")
        self.queue = queue
        self.model = ProposalTableModel(agent_name)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SORT_ROLE)
        self.table = QTableView()
        self.table.setAccessibleName("Open proposals")
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(3, Qt.SortOrder.AscendingOrder)  # oldest first
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.activated.connect(self.on_activated)
        self.status_label = plain_label("Listing the open proposals…")
        self.status_label.setWordWrap(True)
        self.open_button = QPushButton("&Review")
        self.refresh_button = QPushButton("Re&fresh")
        self.open_button.clicked.connect(lambda: self.on_activated(self.table.currentIndex()))
        self.refresh_button.clicked.connect(queue.refresh)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status_label, 1)
        buttons.addWidget(self.refresh_button)
        buttons.addWidget(self.open_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        self.resize(900, 480)
        queue.listed.connect(self.on_listed)
        queue.unavailable.connect(self.on_unavailable)
        queue.message.connect(self.on_message)

    def on_listed(self, proposals: list[Proposal]) -> None:
        self.model.set_proposals(proposals)
        count = len(proposals)
        self.status_label.setText(
            "No open proposals." if not count else f"{count} open proposal{'s' * (count != 1)}."
        )
        self.open_button.setEnabled(bool(count))

    def on_unavailable(self, why: str) -> None:
        self.model.set_proposals([])
        self.status_label.setText(why)
        self.open_button.setEnabled(False)

    def on_message(self, message: UserMessage) -> None:
        self.status_label.setText(message.text)

    def on_activated(self, index: QModelIndex) -> None:
        if index.isValid():
            self.open_requested.emit(str(index.data(PROPOSAL_ID_ROLE)))
