"""Search every Task (Ctrl+Shift+F): hits by agent with their lines; Replace in these Tasks."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from app.core.fleet_models import AgentMatches
from app.desk.fleet_desk import FleetSearch
from app.desk.spec_fleet import NO_CHANGE_SETS, NO_PROMPT_SEARCH, SpecFleetSearch
from widgets.common.plain_text import plain_label

AGENT_ROLE = Qt.ItemDataRole.UserRole + 1
LINE_ROLE = Qt.ItemDataRole.UserRole + 2


def _count(count: int, one: str, many: str) -> str:
    return f"1 {one}" if count == 1 else f"{count:,} {many}"


def found_text(lines: int, agents: int, in_prompt: bool) -> str:
    """ "3 lines in 2 Tasks." / "1 line in 1 prompt." """
    where = ("prompt", "prompts") if in_prompt else ("Task", "Tasks")
    return f"{_count(lines, 'line', 'lines')} in {_count(agents, *where)}."


class SearchDialog(QDialog):
    """Observes a ``FleetSearch`` of its own. ``hit_activated(agent_id, line)`` opens the
    Task at that line; ``replace_requested(agent_ids, find, replacement, regex)`` asks for a
    change set's preview over the agents found. On a server with only the spec's endpoints
    it observes a ``SpecFleetSearch``: the Tasks' own text only, no replace, and its notice
    (what was searched) follows the count."""

    hit_activated = Signal(str, int)
    replace_requested = Signal(list, str, str, bool)

    def __init__(
        self,
        search: FleetSearch | SpecFleetSearch,
        parent: QWidget | None = None,
        guilds: dict[str, str] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("searchEveryTask")
        self.setWindowTitle("Search every Task")
        self.resize(760, 560)
        self._search = search
        search.setParent(self)  # it lives as long as the dialog, no longer
        self.query = QLineEdit(self)
        self.query.setPlaceholderText("Text to find in every Task")
        self.query.setAccessibleName("Text to find")
        self.in_prompt = QCheckBox("In the prompt as the agent gets it", self)
        self.regex = QCheckBox("Regular expression", self)
        self.guild = QComboBox(self)
        self.guild.setAccessibleName("Guild")
        self.guild.addItem("Every guild", None)
        for guild_id, name in sorted((guilds or {}).items(), key=lambda g: g[1].casefold()):
            self.guild.addItem(name, guild_id)
        self.find_button = QPushButton("&Search", self)
        self.find_button.setDefault(True)
        self.replacement = QLineEdit(self)
        self.replacement.setPlaceholderText("Replace with")
        self.replacement.setAccessibleName("Replace with")
        self.replace_button = QPushButton("&Replace in these Tasks…", self)
        self.replace_button.setEnabled(False)
        self.model = QStandardItemModel(self)
        self.results = QTreeView(self)
        self.results.setObjectName("searchResults")
        self.results.setModel(self.model)
        self.results.setHeaderHidden(True)
        self.results.setUniformRowHeights(True)
        self.status = plain_label("", self)
        row = QHBoxLayout()
        row.addWidget(self.query, 1)
        row.addWidget(self.find_button)
        options = QHBoxLayout()
        options.addWidget(self.in_prompt)
        options.addWidget(self.regex)
        options.addWidget(self.guild)
        options.addStretch(1)
        replace_row = QHBoxLayout()
        replace_row.addWidget(self.replacement, 1)
        replace_row.addWidget(self.replace_button)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addLayout(options)
        layout.addWidget(self.results, 1)
        layout.addWidget(self.status)
        layout.addLayout(replace_row)
        self.find_button.clicked.connect(self.on_search)
        self.query.returnPressed.connect(self.on_search)
        self.replace_button.clicked.connect(self.on_replace)
        self.results.activated.connect(self._on_activated)
        search.found.connect(self.show_results)
        search.failed.connect(self.show_failure)
        self.found: list[AgentMatches] = []
        self._asked = ("", False, False)
        self._spec_only = isinstance(search, SpecFleetSearch)
        if isinstance(search, SpecFleetSearch):
            search.notice.connect(self.show_notice)
            self.in_prompt.setEnabled(False)
            self.in_prompt.setToolTip(NO_PROMPT_SEARCH)
            self.replace_button.setToolTip(NO_CHANGE_SETS)

    def on_search(self) -> None:
        self._asked = (self.query.text(), self.in_prompt.isChecked(), self.regex.isChecked())
        self.status.setText("Searching…")
        self._search.search(
            self.query.text(),
            in_prompt=self.in_prompt.isChecked(),
            regex=self.regex.isChecked(),
            guild_id=self.guild.currentData(),
        )

    def show_results(self, found: list[AgentMatches]) -> None:
        self.found = found
        self.model.clear()
        lines = 0
        for agent in found:
            # An agent opened by id on a spec-only server is named by its id alone.
            who = agent.id if agent.name == agent.id else f"{agent.name} ({agent.id})"
            parent = QStandardItem(f"{who} — {len(agent.matches)}")
            parent.setEditable(False)
            parent.setData(agent.id, AGENT_ROLE)
            parent.setData(1, LINE_ROLE)
            for match in agent.matches:
                child = QStandardItem(f"{match.line}: {match.text.strip()}")
                child.setEditable(False)
                child.setData(agent.id, AGENT_ROLE)
                child.setData(match.line, LINE_ROLE)
                parent.appendRow(child)
                lines += 1
            self.model.appendRow(parent)
        if found and len(found) <= 50:
            self.results.expandAll()
        self.status.setText(found_text(lines, len(found), self._asked[1]) if found else "No match.")
        # A replace rewrites Task text: a hit found only in a prompt (from a note) isn't there.
        # A spec-only server has no change sets to make one with.
        self.replace_button.setEnabled(bool(found) and not self._asked[1] and not self._spec_only)

    def show_notice(self, text: str) -> None:
        """What a spec-only search covered, after the count."""
        self.status.setText(f"{self.status.text()} {text}".strip())

    def show_failure(self, text: str) -> None:
        self.status.setText(text)
        self.replace_button.setEnabled(False)

    def on_replace(self) -> None:
        find, _, regex = self._asked
        self.replace_requested.emit(
            [a.id for a in self.found], find, self.replacement.text(), regex
        )

    def _on_activated(self, index: QModelIndex) -> None:
        agent_id = index.data(AGENT_ROLE)
        if isinstance(agent_id, str):
            self.hit_activated.emit(agent_id, int(index.data(LINE_ROLE) or 1))
