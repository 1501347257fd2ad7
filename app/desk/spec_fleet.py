"""The fleet on a server with only the spec's endpoints: what the app can work out itself.

Such a server lists no agents and has no health, search, change sets or audit. The app
still knows the agents opened here by id, so it reads their Tasks itself, paced and bounded
(app.desk.paced_reads): the health table gets each Task's size, shape findings and, for an
agent whose guild is known, its unreachable embeds (the spec's ``embed-status``); what only
the server could tell (embedded bytes, proposals, runs) is marked unknown. A search runs the
server's own line matcher over the same Tasks. Each says in one sentence what it couldn't do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Protocol

from PySide6.QtCore import QObject, Signal

from app.core.fleet_models import (
    EMBEDDED,
    PROPOSALS,
    RUNS,
    UNREACHABLE,
    AgentMatches,
    HealthRow,
    LineMatch,
)
from app.core.fleet_rows import BadPatternError, LineSearch
from app.core.models import AgentEmbedStatus, AgentRow, TaskDoc
from app.core.shape_codes import task_shape_codes
from app.desk.failures import failure_text
from app.desk.paced_reads import READ_LIMIT, PacedReads
from app.desk.runner import Runner

NO_AGENTS_KNOWN = (
    "This server doesn't list its agents: open them with “Open agent by id…”, and the fleet "
    "shows the ones opened here."
)
SPEC_FLEET = (
    "This server has only the spec's endpoints: the fleet shows the {agents} opened here, "
    "read one at a time; embedded size, proposals and runs aren't known (—)."
)
SEARCHED_BY_ID = (
    "Searched the {agents} opened here, one at a time: this server doesn't list its agents."
)
PAST_LIMIT = " Only the first {limit:,} were read."
UNREADABLE = " Not read: {names}."
NO_PROMPT_SEARCH = (
    "This server doesn't expand prompts for a search: untick “In the prompt” to search the "
    "Tasks' own text."
)
NO_CHANGE_SETS = "This server has no change sets: edit the Tasks one at a time."
NO_AUDIT = "This server keeps no audit: each Task's Versions show who changed it and when."
NO_MOVE = "This server has no note endpoints, so a note can't be moved from here."
TYPE_WHAT = "Type what to find."

UNKNOWN_ALWAYS = frozenset({EMBEDDED, PROPOSALS, RUNS})
ROWS_PER_SHOW = 10
"""While Tasks come in, the table is refilled every this many (not on every one)."""


class SpecReader(Protocol):
    """What the spec-only fleet needs of ``TaskdeskClient``: the two spec reads."""

    def get_task(self, agent_id: str) -> TaskDoc: ...

    def embed_status(self, guild_id: str) -> list[AgentEmbedStatus]: ...


def _agents(count: int) -> str:
    return "1 agent" if count == 1 else f"{count:,} agents"


@dataclass(frozen=True, slots=True)
class _TaskRead:
    """A Task read for the table, its shape checked off the GUI thread."""

    doc: TaskDoc
    shape: tuple[str, ...]


def _unread(names: list[str]) -> str:
    return UNREADABLE.format(names="; ".join(names)) if names else ""


def _why_not(agent: AgentRow, error: BaseException) -> str:
    """ "Gone (a_gone): this agent no longer exists on the server" """
    label = agent.name if agent.name == agent.id else f"{agent.name} ({agent.id})"
    return f"{label}: {failure_text(error).rstrip('.')}"


class _SpecReads(QObject):
    """What both reads share: the client, the agents opened here, a paced series, and the
    one-sentence outcomes."""

    failed = Signal(str)
    notice = Signal(str)

    def __init__(
        self,
        runner: Runner,
        client: SpecReader,
        agents: Callable[[], list[AgentRow]],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._client = client
        self._agents = agents
        self.reads = PacedReads(runner, self)


class SpecFleetHealth(_SpecReads):
    """``load()`` → ``loaded(list[HealthRow])`` as rows come in and once at the end, then
    ``notice(sentence)``; ``failed(sentence)`` when nothing can be read. ``guild_ids``: the
    guilds known, whose ``embed-status`` is asked."""

    loaded = Signal(object)

    def __init__(
        self,
        runner: Runner,
        client: SpecReader,
        agents: Callable[[], list[AgentRow]],
        guild_ids: Callable[[], list[str]],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(runner, client, agents, parent)
        self._guild_ids = guild_ids

    def load(self) -> None:
        agents = self._agents()
        if not agents:
            self.reads.stop()
            self.failed.emit(NO_AGENTS_KNOWN)
            return
        client = self._client
        guilds = self._guild_ids()[:READ_LIMIT]
        shown = agents[: READ_LIMIT - len(guilds)]
        guild_of = {a.id: a.guild_id for a in agents}
        broken: dict[str, int] = {}
        rows: list[HealthRow] = []
        unreadable: list[str] = []

        def read_task(agent_id: str) -> _TaskRead:
            doc = client.get_task(agent_id)
            return _TaskRead(doc, task_shape_codes(doc.content))

        reads: list[Callable[[], object]] = [partial(client.embed_status, g) for g in guilds]
        reads += [partial(read_task, a.id) for a in shown]

        def each(index: int, value: object, error: BaseException | None) -> None:
            if index < len(guilds):
                if error is None and isinstance(value, list):
                    for status in value:
                        broken[status.id] = len(status.broken_embeds)
                        # The guild's list names its agents: one opened without a guild
                        # is now known to be in it.
                        guild_of[status.id] = guild_of.get(status.id) or guilds[index]
                return
            agent = shown[index - len(guilds)]
            if error is not None:
                unreadable.append(_why_not(agent, error))
                return
            assert isinstance(value, _TaskRead)
            rows.append(self._row(agent, value, guild_of.get(agent.id, ""), broken))
            if len(rows) % ROWS_PER_SHOW == 0:
                self.loaded.emit(list(rows))

        def end() -> None:
            self.loaded.emit(list(rows))
            said = SPEC_FLEET.format(agents=_agents(len(agents)))
            if len(shown) < len(agents):
                said += PAST_LIMIT.format(limit=len(shown))
            self.notice.emit(said + _unread(unreadable))

        self.reads.start(reads, each, end)

    @staticmethod
    def _row(agent: AgentRow, read: _TaskRead, guild_id: str, broken: dict[str, int]) -> HealthRow:
        doc = read.doc
        checked = bool(guild_id) and agent.id in broken
        return HealthRow(
            id=agent.id,
            name=agent.name,
            guild_id=guild_id,
            task_version=doc.version,
            task_bytes=len(doc.content.encode("utf-8")),
            embedded_bytes=0,
            over_budget=False,
            broken_embeds=broken.get(agent.id, 0),
            shape=read.shape,
            open_proposals=0,
            last_run_at=None,
            prompt_changed_since_run=None,
            unknown=UNKNOWN_ALWAYS if checked else UNKNOWN_ALWAYS | {UNREACHABLE},
        )


class SpecFleetSearch(_SpecReads):
    """``search(...)`` as ``FleetSearch`` answers it → ``found(list[AgentMatches])`` then
    ``notice(sentence)``; ``failed(sentence)`` for what can't be searched here."""

    found = Signal(object)

    def search(
        self, query: str, *, in_prompt: bool, regex: bool, guild_id: str | None = None
    ) -> None:
        self.reads.stop()
        if not query:
            self.failed.emit(TYPE_WHAT)
            return
        if in_prompt:
            self.failed.emit(NO_PROMPT_SEARCH)
            return
        try:
            search = LineSearch(query, regex=regex)
        except BadPatternError:
            from app.client.errors import BadPattern

            self.failed.emit(BadPattern().message)
            return
        agents = [a for a in self._agents() if guild_id is None or a.guild_id == guild_id]
        if not agents:
            self.failed.emit(NO_AGENTS_KNOWN)
            return
        client = self._client
        shown = agents[:READ_LIMIT]
        found: list[AgentMatches] = []
        unreadable: list[str] = []

        def read(agent: AgentRow) -> AgentMatches:
            lines = search.lines(client.get_task(agent.id).content)
            matches = tuple(LineMatch(m["line"], m["column"], m["text"]) for m in lines)
            return AgentMatches(agent.id, agent.name, matches)

        def each(index: int, value: object, error: BaseException | None) -> None:
            if error is not None:
                unreadable.append(_why_not(shown[index], error))
            elif isinstance(value, AgentMatches) and value.matches:
                found.append(value)

        def end() -> None:
            self.found.emit(sorted(found, key=lambda a: a.id))
            said = SEARCHED_BY_ID.format(agents=_agents(len(agents)))
            if len(shown) < len(agents):
                said += PAST_LIMIT.format(limit=len(shown))
            self.notice.emit(said + _unread(unreadable))

        self.reads.start([partial(read, a) for a in shown], each, end)
