"""Who uses a note: the summary line, then the agents grouped by guild; activate one to open it."""

from __future__ import annotations

from itertools import groupby

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QLabel, QTreeView, QVBoxLayout, QWidget

from app.core.note_uses import NoteUse, UsedBy
from widgets.common.plain_text import plain_label

AGENT_ID = Qt.ItemDataRole.UserRole + 1
COLUMNS = ("Agent", "Hop", "Via", "Its run")


def _row(use: NoteUse) -> list[QStandardItem]:
    cells = [
        QStandardItem(f"{use.name} ({use.agent_id})"),
        QStandardItem(str(use.hop)),
        QStandardItem(use.via),
        QStandardItem("reaches the note" if use.reaches else "gets the marker"),
    ]
    for cell in cells:
        cell.setEditable(False)
        cell.setData(use.agent_id, AGENT_ID)
    return cells


class UsedByPanel(QWidget):
    """Fed with ``show_used_by`` or ``show_message``; ``agent_activated(id)`` asks to open one."""

    agent_activated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("UsedByPanel")
        self.summary_label: QLabel = plain_label("Finding the agents that use this note…")
        self.summary_label.setObjectName("usedBySummary")
        self.summary_label.setWordWrap(True)
        self.model = QStandardItemModel(0, len(COLUMNS), self)
        self.model.setHorizontalHeaderLabels(list(COLUMNS))
        self.tree = QTreeView()
        self.tree.setAccessibleName("Agents that use this note")
        self.tree.setModel(self.model)
        self.tree.setUniformRowHeights(True)
        self.tree.activated.connect(self._on_activated)
        self.tree.doubleClicked.connect(self._on_activated)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.tree, 1)
        self.tree.setVisible(False)

    def show_used_by(self, found: UsedBy, guild_names: dict[str, str] | None = None) -> None:
        names = guild_names or {}
        self.summary_label.setText(found.summary())
        self.model.removeRows(0, self.model.rowCount())
        ordered = sorted(found.uses, key=lambda u: (u.guild_id, u.agent_id, u.hop, u.via))
        for guild_id, uses in groupby(ordered, key=lambda u: u.guild_id):
            group = QStandardItem(names.get(guild_id, guild_id))
            group.setEditable(False)
            blanks = [QStandardItem("") for _ in COLUMNS[1:]]
            for blank in blanks:
                blank.setEditable(False)
            for use in uses:
                group.appendRow(_row(use))
            self.model.appendRow([group, *blanks])
        self.tree.expandAll()
        self.tree.resizeColumnToContents(0)
        self.tree.setVisible(bool(found.uses))

    def show_message(self, text: str) -> None:
        """Used-by can't be shown (a spec-only server, a member, a failure): one sentence."""
        self.summary_label.setText(text)
        self.model.removeRows(0, self.model.rowCount())
        self.tree.setVisible(False)

    def show_agents(self, agent_ids: tuple[str, ...], text: str) -> None:
        """Only ids (a refused delete names the Tasks that embed the note): one row each."""
        self.summary_label.setText(text)
        self.model.removeRows(0, self.model.rowCount())
        for agent_id in agent_ids:
            cell = QStandardItem(agent_id)
            cell.setEditable(False)
            cell.setData(agent_id, AGENT_ID)
            self.model.appendRow([cell])
        self.tree.setVisible(bool(agent_ids))

    def _on_activated(self, index: QModelIndex) -> None:
        agent_id = index.data(AGENT_ID)
        if isinstance(agent_id, str) and agent_id:
            self.agent_activated.emit(agent_id)
