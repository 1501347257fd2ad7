"""The sidebar's item model: agents grouped under their guild's name, with a name filter.

A guild the server doesn't name shows by its id; agents of no known guild (opened by id on a
server that lists no agents) are listed under "Opened by id".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from app.connect.server_features import OPENED_BY_ID
from app.core.models import AgentRow, BrokenEmbed, Guild
from widgets.common.plain_text import inert_tooltip

AGENT_ID_ROLE = Qt.ItemDataRole.UserRole + 1
IS_GUILD_ROLE = Qt.ItemDataRole.UserRole + 2
BROKEN_EMBEDS_ROLE = Qt.ItemDataRole.UserRole + 3

NOT_REACHABLE = "Not reachable from the Task"

_Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True, slots=True)
class _Row:
    """A visible row: a guild heading (agent is None) or an agent under it."""

    guild: Guild
    agent: AgentRow | None = None


class AgentListModel(QAbstractListModel):
    """A flat list of guild headings, each followed by its agents, filtered by name.

    Flat rather than a tree: the sidebar only ever shows one level of grouping, and a list
    keeps keyboard navigation and filtering simple. Headings are not selectable.
    """

    def __init__(self, parent: object | None = None) -> None:
        super().__init__(None)
        self._agents: list[AgentRow] = []
        self._guilds: list[Guild] = []
        self._broken: dict[str, tuple[BrokenEmbed, ...]] = {}
        self._filter = ""
        self._rows: list[_Row] = []

    # ------------------------------------------------------------------ feeding

    def set_agents(self, agents: Iterable[AgentRow], guilds: Iterable[Guild]) -> None:
        self._agents = list(agents)
        self._guilds = list(guilds)
        self._rebuild()

    def add_agent(self, agent: AgentRow) -> None:
        """Add an agent, or replace the row with its id (an agent opened by id)."""
        self._agents = [a for a in self._agents if a.id != agent.id] + [agent]
        self._rebuild()

    def set_broken_embeds(self, broken: Mapping[str, Iterable[BrokenEmbed]]) -> None:
        """Merge the embed status of some agents (one guild's answer at a time)."""
        for agent_id, embeds in broken.items():
            self._broken[agent_id] = tuple(embeds)
        if self._rows:
            self.dataChanged.emit(self.index(0), self.index(len(self._rows) - 1))

    def set_filter(self, text: str) -> None:
        self._filter = text.strip().casefold()
        self._rebuild()

    # ------------------------------------------------------------------ queries

    def agent(self, agent_id: str) -> AgentRow | None:
        return next((a for a in self._agents if a.id == agent_id), None)

    def guild_name(self, guild_id: str) -> str:
        fallback = guild_id or OPENED_BY_ID
        return next((g.name for g in self._guilds if g.id == guild_id), fallback)

    def broken_embeds(self, agent_id: str) -> tuple[BrokenEmbed, ...]:
        return self._broken.get(agent_id, ())

    def row_of(self, agent_id: str) -> int:
        for i, row in enumerate(self._rows):
            if row.agent is not None and row.agent.id == agent_id:
                return i
        return -1

    def agent_ids(self) -> list[str]:
        """The visible agents, in order."""
        return [row.agent.id for row in self._rows if row.agent is not None]

    # ------------------------------------------------------------------ the model

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._rows)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        if self._rows[index.row()].agent is None:
            return Qt.ItemFlag.ItemIsEnabled
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        agent = row.agent
        if agent is None:
            if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
                return row.guild.name
            if role == IS_GUILD_ROLE:
                return True
            return None
        broken = self._broken.get(agent.id, ())
        if role == Qt.ItemDataRole.DisplayRole:
            return agent.name
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{agent.name}, {NOT_REACHABLE.lower()}" if broken else agent.name
        if role == Qt.ItemDataRole.ToolTipRole:
            if not broken:
                if not agent.task_version:  # opened by id, its version not read yet
                    return inert_tooltip(f"{agent.name} · {row.guild.name}")
                return inert_tooltip(f"{agent.name} · {row.guild.name} · v{agent.task_version}")
            paths = "\n".join(f"• {b.path}" for b in broken)
            return inert_tooltip(f"{NOT_REACHABLE}:\n{paths}")
        if role == AGENT_ID_ROLE:
            return agent.id
        if role == IS_GUILD_ROLE:
            return False
        if role == BROKEN_EMBEDS_ROLE:
            return broken
        return None

    def _rebuild(self) -> None:
        self.beginResetModel()
        rows: list[_Row] = []
        known = {g.id for g in self._guilds}
        # Agents of a guild the server did not list still show, under their guild id.
        guilds = self._guilds + [
            Guild(gid, gid or OPENED_BY_ID)
            for gid in dict.fromkeys(a.guild_id for a in self._agents)
            if gid not in known
        ]
        for guild in guilds:
            members = [
                a for a in self._agents if a.guild_id == guild.id and self._matches(a, guild)
            ]
            if members:
                rows.append(_Row(guild))
                rows.extend(
                    _Row(guild, a) for a in sorted(members, key=lambda a: a.name.casefold())
                )
        self._rows = rows
        self.endResetModel()

    def _matches(self, agent: AgentRow, guild: Guild) -> bool:
        if not self._filter:
            return True
        return self._filter in agent.name.casefold() or self._filter in guild.name.casefold()
