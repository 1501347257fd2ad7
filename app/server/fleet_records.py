"""The fleet's reads: every live Task at once, each agent's newest run, open proposals, and
what a run of each agent gets now as the used-by index keeps it."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from app.core.expander import Expansion, expand_embeds, task_display_path
from app.core.limits import EMBED_BUDGET_BYTES
from app.core.models import AccessEntry, OrgFile, Reader, sha256_hex
from app.server.database import AgentRecord, Transaction
from app.server.db_records import access_list, file_kind
from app.server.note_uses import INLINE_SIZES


@dataclass(frozen=True, slots=True)
class LiveTask:
    agent: AgentRecord
    content: str
    hash: str


def live_tasks(tx: Transaction, guild_id: str | None = None) -> list[LiveTask]:
    """Every agent (of one guild, or all) with its live Task text, by id, in one query."""
    sql = "SELECT id, name, guild_id, task_version, task, task_hash FROM agents"
    args: tuple[str, ...] = ()
    if guild_id is not None:
        sql += " WHERE guild_id = ?"
        args = (guild_id,)
    rows = tx.conn.execute(sql + " ORDER BY id", args)
    return [LiveTask(AgentRecord(r[0], r[1], r[2], r[3]), r[4], r[5]) for r in rows]


@dataclass(frozen=True, slots=True)
class AgentHead:
    """An agent and its Task's hash, without the text."""

    agent: AgentRecord
    hash: str


def agent_heads(tx: Transaction, guild_id: str | None = None) -> list[AgentHead]:
    """Every agent (of one guild, or all) with its Task's hash, by id: no text is read."""
    sql = "SELECT id, name, guild_id, task_version, task_hash FROM agents"
    args: tuple[str, ...] = ()
    if guild_id is not None:
        sql += " WHERE guild_id = ?"
        args = (guild_id,)
    rows = tx.conn.execute(sql + " ORDER BY id", args)
    return [AgentHead(AgentRecord(r[0], r[1], r[2], r[3]), r[4]) for r in rows]


def search_heads(tx: Transaction, guild_id: str | None = None) -> list[tuple[str, str, str]]:
    """Every agent (of one guild, or all) as (id, name, Task hash), by id: what a search
    needs, as the rows come (a search reads them all on every request)."""
    sql = "SELECT id, name, task_hash FROM agents"
    args: tuple[str, ...] = ()
    if guild_id is not None:
        sql += " WHERE guild_id = ?"
        args = (guild_id,)
    return [(r[0], r[1], r[2]) for r in tx.conn.execute(sql + " ORDER BY id", args)]


IDS_PER_QUERY = 500
"""Ids in one ``IN (…)``: within every SQLite's and PostgreSQL's parameter limits."""


def live_tasks_of(tx: Transaction, agent_ids: list[str]) -> list[LiveTask]:
    """The named agents with their live Task texts, by id; unknown ids are left out."""
    found: list[LiveTask] = []
    unique = sorted(set(agent_ids))
    for start in range(0, len(unique), IDS_PER_QUERY):
        chunk = unique[start : start + IDS_PER_QUERY]
        marks = ", ".join("?" for _ in chunk)
        rows = tx.conn.execute(
            "SELECT id, name, guild_id, task_version, task, task_hash FROM agents"
            f" WHERE id IN ({marks}) ORDER BY id",
            chunk,
        )
        found += [LiveTask(AgentRecord(r[0], r[1], r[2], r[3]), r[4], r[5]) for r in rows]
    return found


def task_texts_of(tx: Transaction, agent_ids: list[str]) -> dict[str, str]:
    """The named agents' live Task texts by agent, unknown ids left out: the text alone, for
    the fleet's kept texts (``FleetCache.task_texts``); every agent's at once is one query."""
    if len(agent_ids) < IDS_PER_QUERY:
        return {t.agent.id: t.content for t in live_tasks_of(tx, agent_ids)}
    wanted = set(agent_ids)
    rows = tx.conn.execute("SELECT id, task FROM agents")
    return {agent_id: text for agent_id, text in rows if agent_id in wanted}


class FileMemo(dict[str, OrgFile | None]):
    """``tx.file`` remembered for one request: thousands of Tasks embed the same few notes.

    A dict of the files by display path: the expander looks each embed up with the dict's own
    ``__getitem__`` (no Python call a hit), and a path not read yet is read then."""

    def __init__(self, tx: Transaction) -> None:
        super().__init__()
        self._tx = tx

    def __missing__(self, display_path: str) -> OrgFile | None:
        found = self[display_path] = self._tx.file(display_path)
        return found

    def load_reached(self) -> None:
        """Every live file some run reaches (the used-by index names it), in one query: a
        prompt search expands every agent, and ten thousand point reads cost it 0.4 s."""
        decoded: dict[str, tuple[AccessEntry, ...]] = {}  # access lists repeat across notes
        rows = self._tx.conn.execute(
            "SELECT display_path, kind, title, text, version, access FROM files"
            " WHERE deleted_at IS NULL AND display_path IN (SELECT display_path FROM note_uses)"
        )
        for path, kind, title, text, version, access in rows:
            entries = decoded.get(access)
            if entries is None:
                entries = decoded[access] = access_list(access)
            self[path] = OrgFile(path, file_kind(kind), title, text, version, entries)


def expander_for(tx: Transaction, *, every_agent: bool = False) -> Callable[[LiveTask], Expansion]:
    """Expands live Tasks as their runs would (the text and the sums: no pieces or notes),
    sharing one memo of the notes; ``every_agent``:
    all of them may need it, so at the first expansion (the cache had none) the notes runs
    reach are read in one query."""
    org_id = tx.meta("org_id")
    lookup = FileMemo(tx)
    unread = [every_agent]

    def expand(task: LiveTask) -> Expansion:
        if unread[0]:
            unread[0] = False
            lookup.load_reached()
        agent = task.agent
        return expand_embeds(
            task.content,
            org_id=org_id,
            reader=Reader(agent.id, agent.guild_id),
            lookup=lookup.__getitem__,  # the dict's own: a mapping's ``get`` would not read
            task_path=task_display_path(org_id, agent.id),
            text_only=True,  # the fleet keeps the text and the sums (fleet_cache), no pieces
        )

    return expand


@dataclass(frozen=True, slots=True)
class NewestRun:
    created_at: str
    expanded_task_hash: str


def newest_runs(tx: Transaction) -> dict[str, NewestRun]:
    """Each agent's newest run: when, and the hash of the expanded Task its prompt held."""
    rows = tx.conn.execute(
        "SELECT r.agent_id, r.created_at, r.system_prompt FROM runs r"
        " WHERE r.created_at = (SELECT MAX(n.created_at) FROM runs n WHERE n.agent_id = r.agent_id)"
    )
    found: dict[str, NewestRun] = {}
    for agent_id, created_at, prompt in rows:
        if agent_id not in found:
            found[agent_id] = NewestRun(created_at, sha256_hex(_task_part(prompt)))
    return found


def _task_part(prompt: str) -> str:
    """The text inside ``<task>`` … ``</task>`` (system_prompt's layout)."""
    start = prompt.find("<task>\n")
    end = prompt.rfind("\n</task>")
    if start < 0 or end < start:
        return ""
    return prompt[start + len("<task>\n") : end]


def open_proposal_counts(tx: Transaction) -> dict[str, int]:
    """Open proposals per agent; empty where the server keeps no proposals table.

    The proposals live in a table of their own feature; asked inside a savepoint, so a
    database without it (SQLite or PostgreSQL alike) answers nothing instead of failing
    the read it is part of.
    """
    conn = tx.conn
    conn.execute("SAVEPOINT open_proposals")
    try:
        rows = conn.execute(
            "SELECT agent_id, COUNT(*) FROM proposals WHERE status = 'open' GROUP BY agent_id"
        ).fetchall()
    except Exception:  # any driver's "no such table": the count is then 0
        conn.execute("ROLLBACK TO SAVEPOINT open_proposals")
        rows = []
    conn.execute("RELEASE SAVEPOINT open_proposals")
    return {str(agent_id): int(count) for agent_id, count in rows}


@dataclass(frozen=True, slots=True)
class KeptRun:
    """What a run of the agent gets now, as the used-by index keeps it beside its rows
    (``agent_runs``, exact after every save: ``note_uses``): no expansion needed."""

    embedded_bytes: int
    broken_embeds: int

    @property
    def over_budget(self) -> bool:
        return self.embedded_bytes > EMBED_BUDGET_BYTES


def kept_runs(tx: Transaction) -> dict[str, KeptRun]:
    """Every agent's kept figures, by agent, in two queries: the broken embeds kept beside
    the index, and the embedded bytes summed from the index's ``inline`` rows and the notes'
    kept sizes (a run inlines each note once: ``note_uses.runs_now``, for the whole org)."""
    sizes = dict(tx.conn.execute(INLINE_SIZES + " GROUP BY u.agent_id"))
    rows = tx.conn.execute("SELECT agent_id, broken FROM agent_runs")
    return {
        agent_id: KeptRun(
            int(sizes.get(agent_id) or 0), 0 if broken == "[]" else len(json.loads(broken))
        )
        for agent_id, broken in rows
    }
