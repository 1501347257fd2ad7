"""The sidebar's item model: agents grouped under their guild's name, with a name filter.

A guild the server doesn't name shows by its id; agents of no known guild (opened by id on a
server that lists no agents) are listed under "Opened by id".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import compress
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QStringListModel, Qt

from app.connect.server_features import OPENED_BY_ID
from app.core.limits import EMBED_BUDGET_BYTES
from widgets.common.plain_text import inert_tooltip

if TYPE_CHECKING:  # the records load with the first connection, not before the first paint
    from app.core.models import AgentRow, BrokenEmbed, Guild

AGENT_ID_ROLE = Qt.ItemDataRole.UserRole + 1
IS_GUILD_ROLE = Qt.ItemDataRole.UserRole + 2
BROKEN_EMBEDS_ROLE = Qt.ItemDataRole.UserRole + 3
OVER_BUDGET_ROLE = Qt.ItemDataRole.UserRole + 4  # the embedded size when over the budget

# The roles data() answers, as plain ints (compared once per role asked, per row painted).
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_ACCESSIBLE_TEXT = int(Qt.ItemDataRole.AccessibleTextRole)
_ACCESSIBLE_DESCRIPTION = int(Qt.ItemDataRole.AccessibleDescriptionRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_AGENT_ID, _IS_GUILD, _BROKEN, _OVER_BUDGET = (
    int(r) for r in (AGENT_ID_ROLE, IS_GUILD_ROLE, BROKEN_EMBEDS_ROLE, OVER_BUDGET_ROLE)
)
_ANSWERED = frozenset(
    {
        _DISPLAY,
        _ACCESSIBLE_TEXT,
        _ACCESSIBLE_DESCRIPTION,
        _TOOLTIP,
        _AGENT_ID,
        _IS_GUILD,
        _BROKEN,
        _OVER_BUDGET,
    }
)

NOT_REACHABLE = "Not reachable from the Task"
UNSAVED_MARK = "•"  # the same mark as in the window title and the header
PROPOSALS_MARK = "✎"  # open proposals: a count after it, unlike the other marks


def proposals_text(count: int) -> str:
    return f"{count} open proposal{'s' * (count != 1)}"


EDITED_MARK = "✍"  # someone else is editing this Task now (live presence)

_Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True, slots=True)
class _Row:
    """A visible row: a guild heading (agent is None) or an agent under it."""

    guild: Guild
    agent: AgentRow | None = None


@dataclass(frozen=True, slots=True)
class _Group:
    """A guild's heading and its agents' rows, sorted by name, with what the filter reads:
    the lower-cased guild name and agent names, and the names the rows show."""

    heading: _Row
    key: str
    rows: list[_Row]
    agent_keys: list[str]
    names: list[str]


def over_budget_text(size: int) -> str:
    return (
        f"Over the embed budget: its embeds hold {size / 1024:.1f} KB; the limit is "
        f"{EMBED_BUDGET_BYTES // 1024} KB, so a run can't start."
    )


class AgentListModel(QStringListModel):
    """A flat list of guild headings, each followed by its agents, filtered by name.

    Flat rather than a tree: the sidebar only ever shows one level of grouping, and a list
    keeps keyboard navigation and filtering simple. Headings are not selectable. A filter key
    rebuilds the rows in one pass over names lower-cased once per agent list.
    """

    def __init__(self, parent: object | None = None) -> None:
        super().__init__(None)
        self._agents: list[AgentRow] = []
        self._guilds: list[Guild] = []
        self._broken: dict[str, tuple[BrokenEmbed, ...]] = {}
        self._over_budget: dict[str, int] = {}  # agent id → bytes its runs would embed
        self._proposals: dict[str, int] = {}  # agent id → open proposals
        self._filter = ""
        self._rows: list[_Row] = []
        self._unsaved: set[str] = set()
        self._edited_elsewhere: set[str] = set()  # agents someone else is editing now
        # Built once per agent list, so a filter key costs one pass over the names.
        self._by_id: dict[str, AgentRow] = {}
        self._guild_names: dict[str, str] = {}
        self._groups: list[_Group] = []
        self._row_of: dict[str, int] | None = None

    # ------------------------------------------------------------------ feeding

    def set_agents(self, agents: Iterable[AgentRow], guilds: Iterable[Guild]) -> None:
        self._agents = list(agents)
        self._guilds = list(guilds)
        self._group()
        self._rebuild()

    def add_agent(self, agent: AgentRow) -> None:
        """Add an agent, or replace the row with its id (an agent opened by id)."""
        self._agents = [a for a in self._agents if a.id != agent.id] + [agent]
        self._group()
        self._rebuild()

    def set_broken_embeds(self, broken: Mapping[str, Iterable[BrokenEmbed]]) -> None:
        """Merge the embed status of some agents (a guild's answer, or the whole org's).

        One change signal per answer, over the rows whose marks changed: the view repaints
        those, not every row once per guild.
        """
        changed: list[str] = []
        for agent_id, embeds in broken.items():
            new = tuple(embeds)
            if self._broken.get(agent_id, ()) != new:
                changed.append(agent_id)
            self._broken[agent_id] = new
        rows = [r for r in map(self._row_map().get, changed) if r is not None]
        if rows:
            self.dataChanged.emit(self.index(min(rows)), self.index(max(rows)))

    def set_unsaved(self, agent_id: str, unsaved: bool) -> None:
        """Mark (or unmark) the agent whose Task has edits the server doesn't have."""
        if (agent_id in self._unsaved) == unsaved:
            return
        if unsaved:
            self._unsaved.add(agent_id)
        else:
            self._unsaved.discard(agent_id)
        row = self.row_of(agent_id)
        if row >= 0:
            self.dataChanged.emit(self.index(row), self.index(row))

    def set_edited_by_others(self, agent_ids: set[str]) -> None:
        """Mark the agents whose Task someone else is editing now (and unmark the rest)."""
        changed = agent_ids ^ self._edited_elsewhere
        self._edited_elsewhere = set(agent_ids)
        rows = [r for r in (self.row_of(a) for a in changed) if r >= 0]
        if rows:
            self.dataChanged.emit(self.index(min(rows)), self.index(max(rows)))

    def is_edited_by_others(self, agent_id: str) -> bool:
        return agent_id in self._edited_elsewhere

    def set_embedded_bytes(self, sizes: Mapping[str, int | None]) -> None:
        """What each agent's run would embed (None: not known); over the budget is marked."""
        changed: list[str] = []
        for agent_id, size in sizes.items():
            over = size if size is not None and size > EMBED_BUDGET_BYTES else None
            if self._over_budget.get(agent_id) != over:
                changed.append(agent_id)
            if over is None:
                self._over_budget.pop(agent_id, None)
            else:
                self._over_budget[agent_id] = over
        # One change signal over the rows whose mark changed, as for the broken embeds.
        rows = [r for r in map(self._row_map().get, changed) if r is not None]
        if rows:
            self.dataChanged.emit(self.index(min(rows)), self.index(max(rows)))

    def set_open_proposals(self, counts: Mapping[str, int]) -> None:
        """Each agent's open proposals (an agent left out has none), marked beside its name."""
        changed = set(self._proposals) ^ set(counts)
        changed |= {a for a, n in counts.items() if self._proposals.get(a) != n}
        self._proposals = {a: n for a, n in counts.items() if n}
        rows = [r for r in map(self._row_map().get, changed) if r is not None]
        if rows:
            self.dataChanged.emit(self.index(min(rows)), self.index(max(rows)))

    def open_proposals(self, agent_id: str) -> int:
        return self._proposals.get(agent_id, 0)

    def set_filter(self, text: str) -> None:
        self._filter = text.strip().casefold()
        self._rebuild()

    # ------------------------------------------------------------------ queries

    def agent(self, agent_id: str) -> AgentRow | None:
        return self._by_id.get(agent_id)

    def guild_name(self, guild_id: str) -> str:
        return self._guild_names.get(guild_id) or guild_id or OPENED_BY_ID

    def broken_embeds(self, agent_id: str) -> tuple[BrokenEmbed, ...]:
        return self._broken.get(agent_id, ())

    def row_of(self, agent_id: str) -> int:
        return self._row_map().get(agent_id, -1)

    def agent_ids(self) -> list[str]:
        """The visible agents, in order."""
        return [row.agent.id for row in self._rows if row.agent is not None]

    # ------------------------------------------------------------------ the model

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        if self._rows[index.row()].agent is None:
            return Qt.ItemFlag.ItemIsEnabled
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        # A style asks for a dozen roles per row painted (font, colours, check state, …):
        # those are answered before any lookup.
        if role not in _ANSWERED or not index.isValid():
            return None
        at = index.row()
        if not 0 <= at < len(self._rows):
            return None
        row = self._rows[at]
        agent = row.agent
        if agent is None:
            if role in (_DISPLAY, _ACCESSIBLE_TEXT):
                return row.guild.name
            if role == _IS_GUILD:
                return True
            if role == _ACCESSIBLE_DESCRIPTION:
                return "Guild heading"  # a heading over the agents below, not a choice
            return None
        if role == _DISPLAY:
            name = f"{agent.name} {UNSAVED_MARK}" if agent.id in self._unsaved else agent.name
            if agent.id in self._edited_elsewhere:
                name = f"{name} {EDITED_MARK}"
            proposals = self._proposals.get(agent.id)
            return f"{name}  {PROPOSALS_MARK}{proposals}" if proposals else name
        if role == _IS_GUILD:
            return False
        if role == _AGENT_ID:
            return agent.id
        if role == _BROKEN:
            return self._broken.get(agent.id, ())
        if role == _OVER_BUDGET:
            return self._over_budget.get(agent.id)
        broken = self._broken.get(agent.id, ())
        over = self._over_budget.get(agent.id)
        if role == _ACCESSIBLE_TEXT:
            marks = ["unsaved changes"] if agent.id in self._unsaved else []
            marks += ["someone else is editing it"] if agent.id in self._edited_elsewhere else []
            marks += [NOT_REACHABLE.lower()] if broken else []
            marks += ["over the embed budget"] if over is not None else []
            marks += (
                [proposals_text(self._proposals[agent.id])] if agent.id in self._proposals else []
            )
            return ", ".join([agent.name, *marks])
        if role == _TOOLTIP:
            parts = []
            if agent.id in self._proposals:
                parts.append(proposals_text(self._proposals[agent.id]).capitalize())
            if over is not None:
                parts.append(over_budget_text(over))
            if broken:
                paths = "\n".join(f"• {b.path}" for b in broken)
                parts.append(f"{NOT_REACHABLE}:\n{paths}")
            if agent.id in self._edited_elsewhere:
                parts.append("Someone else is editing this Task now.")
            if parts:
                return inert_tooltip("\n".join(parts))
            if not agent.task_version:  # opened by id, its version not read yet
                return inert_tooltip(f"{agent.name} · {row.guild.name}")
            return inert_tooltip(f"{agent.name} · {row.guild.name} · v{agent.task_version}")
        return None

    def _group(self) -> None:
        """Agents under their guild, sorted by name, with the lower-cased names to filter on."""
        from app.core.models import Guild  # agents come with a connection, after the paint

        self._by_id = {a.id: a for a in self._agents}
        self._guild_names = {g.id: g.name for g in self._guilds}
        members: dict[str, list[AgentRow]] = {}
        for agent in self._agents:
            members.setdefault(agent.guild_id, []).append(agent)
        # Agents of a guild the server did not list still show, under their guild id.
        guilds = self._guilds + [
            Guild(gid, gid or OPENED_BY_ID) for gid in members if gid not in self._guild_names
        ]
        self._groups = []
        for guild in guilds:
            if guild.id not in members:
                continue
            agents = sorted(members[guild.id], key=lambda a: a.name.casefold())
            self._groups.append(
                _Group(
                    _Row(guild),
                    guild.name.casefold(),
                    [_Row(guild, a) for a in agents],
                    [a.name.casefold() for a in agents],
                    [a.name for a in agents],
                )
            )

    def _rebuild(self) -> None:
        rows: list[_Row] = []
        names: list[str] = []
        wanted = self._filter
        # Whole guilds go in by list.extend and filtered ones by compress: per key, Python
        # only tests each name once (5,000 agents: ~1 ms, not 3).
        for group in self._groups:
            if wanted and wanted not in group.key:
                matches = [wanted in key for key in group.agent_keys]
                if any(matches):
                    rows.append(group.heading)
                    names.append(group.heading.guild.name)
                    rows.extend(compress(group.rows, matches))
                    names.extend(compress(group.names, matches))
            elif group.rows:
                rows.append(group.heading)
                names.append(group.heading.guild.name)
                rows.extend(group.rows)
                names.extend(group.names)
        if rows and rows == self._rows:
            return  # a letter that hides no one: no reset, so no layout and no repaint
        self._rows = rows
        self._row_of = None
        # A C++ string list holds the rows, so the view's count of rows (asked once per
        # row while it lays out thousands) never calls into Python; data() is ours.
        self.setStringList(names)

    def _row_map(self) -> dict[str, int]:
        """Each visible agent's row, built when first asked after a rebuild."""
        if self._row_of is None:
            self._row_of = {
                row.agent.id: i for i, row in enumerate(self._rows) if row.agent is not None
            }
        return self._row_of
