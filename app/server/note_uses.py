"""The used-by index: which agents' runs embed each path, at which hop, via which file.

One row per (agent, embedded path, hop, file holding the embed), read off the very
``Expansion`` a run of that agent gets (``expand_live_task``), so the index says what runs
do, not what a second parser thinks. It is kept exact inside each write transaction:

- a Task save re-expands that agent (``task_changed``);
- a note put or delete (``before_file_change`` / ``after_file_change``) re-expands the agents
  whose runs look the note up: exactly those with a row for its path, since an expansion
  looks up only the paths embedded at hop 1 and 2, and each of those is a row here (a
  missing or unreadable one as a ``marker`` row). An edit that keeps the note's kind, access
  and embeds in the same order cannot change any row (every lookup answers as before), so it
  re-expands nobody: the agents whose expanded Task changes are read off the rows.

``outcome`` is what the run made of the embed: ``inline``, ``repeat`` (a note already
inlined, shown by its title), ``collection`` (its name) or ``marker``. ``reaches`` on the
wire is every outcome but ``marker``.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass
from typing import Protocol

from app.core.expander import (
    EMBED_RE,
    Expansion,
    embed_path,
    expand_embeds,
    repeat_title,
    task_display_path,
)
from app.core.models import BrokenEmbed, OrgFile, Reader
from app.core.note_uses import uses_of
from app.server.db_records import AgentRecord, TaskRecord


class Transaction(Protocol):
    """What the index needs of a write transaction (``database.Transaction``, which calls this
    module from its writes: the index must not import it back)."""

    uses_deferred: bool

    @property
    def conn(self) -> sqlite3.Connection: ...

    def meta(self, key: str) -> str: ...
    def set_meta(self, key: str, value: str) -> None: ...
    def agents(self, guild_id: str | None = None) -> list[AgentRecord]: ...
    def agent(self, agent_id: str) -> AgentRecord | None: ...
    def task(self, agent_id: str, *, with_revisions: bool = True) -> TaskRecord | None: ...
    def file(self, display_path: str) -> OrgFile | None: ...


BUILT_KEY = "note_uses_built"
"""The meta key saying the index was built for every agent (a database made before it
existed is indexed once when opened)."""


@dataclass(frozen=True, slots=True)
class Use:
    """One row of the index, with the agent's name and guild for the answer."""

    agent_id: str
    name: str
    guild_id: str
    display_path: str
    hop: int
    via: str
    outcome: str

    @property
    def reaches(self) -> bool:
        return self.outcome != "marker"


def expand_as_run(tx: Transaction, agent: AgentRecord, task_text: str) -> Expansion:
    """The expansion a run gets: the one place it is made on the server (``live_expansion``
    hands it on; that module imports the database, which calls in here)."""
    org_id = tx.meta("org_id")
    return expand_embeds(
        task_text,
        org_id=org_id,
        reader=Reader(agent.id, agent.guild_id),
        lookup=tx.file,
        task_path=task_display_path(org_id, agent.id),
    )


# ---------------------------------------------------------------- upkeep


def index_agent(tx: Transaction, agent: AgentRecord, task_text: str) -> Expansion:
    """Replace the agent's rows with what a run of ``task_text`` meets; the expansion."""
    expansion = expand_as_run(tx, agent, task_text)
    _store(tx, agent.id, uses_of(expansion, task_display_path(tx.meta("org_id"), agent.id)))
    broken = json.dumps([b.to_json() for b in expansion.broken])
    tx.conn.execute(
        "INSERT INTO agent_runs (agent_id, embedded_bytes, broken) VALUES (?, ?, ?)"
        " ON CONFLICT (agent_id) DO UPDATE SET embedded_bytes = excluded.embedded_bytes,"
        " broken = excluded.broken",
        (agent.id, expansion.embedded_bytes, broken),
    )
    return expansion


@dataclass(frozen=True, slots=True)
class RunNow:
    """What a run of the agent gets now, as kept beside the index (``agent_runs``)."""

    embedded_bytes: int
    broken: tuple[BrokenEmbed, ...]


def runs_now(tx: Transaction, agent_ids: list[str]) -> dict[str, RunNow]:
    """The kept embedded bytes and broken embeds of each agent's run now."""
    found: dict[str, RunNow] = {}
    for start in range(0, len(agent_ids), 500):  # within any database's parameter limit
        chunk = agent_ids[start : start + 500]
        marks = ", ".join("?" for _ in chunk)
        rows = tx.conn.execute(
            f"SELECT agent_id, embedded_bytes, broken FROM agent_runs WHERE agent_id IN ({marks})",
            chunk,
        )
        for agent_id, size, broken in rows:
            embeds = tuple(BrokenEmbed(b["path"], b["hop"], b["in"]) for b in json.loads(broken))
            found[agent_id] = RunNow(size, embeds)
    return found


def stored_size(text: str | None) -> int:
    """A note's bytes as the budget counts them (the expander's count)."""
    return len((text or "").encode("utf-8", "surrogatepass"))


def _store(tx: Transaction, agent_id: str, uses: dict[tuple[str, int, str], str]) -> None:
    tx.conn.execute("DELETE FROM note_uses WHERE agent_id = ?", (agent_id,))
    tx.conn.executemany(
        "INSERT INTO note_uses (agent_id, display_path, hop, via, outcome) VALUES (?, ?, ?, ?, ?)",
        [(agent_id, path, hop, via, outcome) for (path, hop, via), outcome in uses.items()],
    )


def task_changed(
    tx: Transaction, agent_id: str, task_text: str, old_text: str | None = None
) -> None:
    """A Task was saved (or an agent added): its agent's rows follow the new text. A save
    that keeps the Task's embeds, the same paths in the same order, makes every lookup of
    the run as before: no row, size or marker can change, and nothing is re-expanded."""
    if tx.uses_deferred:
        return
    if old_text is not None and embeds_in(old_text) == embeds_in(task_text):
        return
    agent = tx.agent(agent_id)
    if agent is not None:
        index_agent(tx, agent, task_text)


def rebuild(tx: Transaction) -> None:
    """Index every agent afresh (after seeding, or a database made before the index)."""
    tx.conn.execute("DELETE FROM note_uses")
    tx.conn.execute("DELETE FROM agent_runs")
    for agent in tx.agents():
        task = tx.task(agent.id, with_revisions=False)
        assert task is not None
        index_agent(tx, agent, task.content)
    tx.set_meta(BUILT_KEY, "1")


def is_built(tx: Transaction) -> bool:
    row = tx.conn.execute("SELECT value FROM meta WHERE key = ?", (BUILT_KEY,)).fetchone()
    return row is not None


@dataclass(frozen=True, slots=True)
class FileBefore:
    """A file as it was before a put or delete, and what runs made of it then."""

    display_path: str
    old: OrgFile | None
    expanded: dict[str, str]  # agent id → expanded Task, for the agents re-expanded after


def _agents_looking_up(tx: Transaction, display_path: str) -> list[AgentRecord]:
    rows = tx.conn.execute(
        "SELECT DISTINCT a.id, a.name, a.guild_id, a.task_version FROM note_uses u"
        " JOIN agents a ON a.id = u.agent_id WHERE u.display_path = ? ORDER BY a.id",
        (display_path,),
    )
    return [AgentRecord(*row) for row in rows]


def embeds_in(text: str | None) -> list[str]:
    return [embed_path(m.group(1)) for m in EMBED_RE.finditer(text or "")]


def same_lookups(old: OrgFile | None, new: OrgFile | None) -> bool:
    """Whether every expansion's lookups answer as before: no row of the index can change."""
    if old is None or new is None or old.kind != new.kind or old.access != new.access:
        return False
    return old.kind != "note" or embeds_in(old.text) == embeds_in(new.text)


def before_file_change(tx: Transaction, display_path: str, new: OrgFile | None) -> FileBefore:
    """Call before a file is put (``new``) or deleted (``new`` None), in the same write."""
    old = tx.file(display_path)
    expanded: dict[str, str] = {}
    if not tx.uses_deferred and not same_lookups(old, new):
        for agent in _agents_looking_up(tx, display_path):
            task = tx.task(agent.id, with_revisions=False)
            assert task is not None
            expanded[agent.id] = expand_as_run(tx, agent, task.content).text
    return FileBefore(display_path, old, expanded)


def after_file_change(tx: Transaction, before: FileBefore) -> list[str]:
    """Bring the index up to date after the write; the agents whose expanded Task it changed."""
    if tx.uses_deferred:
        return []
    new = tx.file(before.display_path)
    if same_lookups(before.old, new):
        assert before.old is not None and new is not None
        delta = stored_size(new.text) - stored_size(before.old.text)
        if delta:  # each run that inlines the note carries its new size
            tx.conn.execute(
                "UPDATE agent_runs SET embedded_bytes = embedded_bytes + ? WHERE agent_id IN"
                " (SELECT agent_id FROM note_uses WHERE display_path = ? AND outcome = 'inline')",
                (delta, before.display_path),
            )
        return changed_in_place(tx, before.display_path, before.old, new)
    changed: list[str] = []
    for agent in _agents_looking_up(tx, before.display_path):
        task = tx.task(agent.id, with_revisions=False)
        assert task is not None
        text = index_agent(tx, agent, task.content).text
        if before.expanded.get(agent.id) != text:
            changed.append(agent.id)
    return changed


def changed_in_place(
    tx: Transaction, display_path: str, old: OrgFile | None, new: OrgFile | None
) -> list[str]:
    """Rows unchanged: an agent's expanded Task changes where it inlines the note and what
    it inlines differs (at hop 1 the text between the embeds, since the embeds are the same
    paths; at hop 2 the text as written, embeds and all), or shows its title and that differs."""
    assert old is not None and new is not None
    old_text, new_text = (old.text or "").rstrip("\r\n"), (new.text or "").rstrip("\r\n")
    wanted: list[tuple[str, int | None]] = []
    if _EMBED_ANY.split(old_text) != _EMBED_ANY.split(new_text):
        wanted.append(("inline", 1))
    if old_text != new_text:
        wanted.append(("inline", 2))
    if repeat_title(old) != repeat_title(new):
        wanted.append(("repeat", None))
    if old.kind == "collection" and old.title != new.title:
        wanted.append(("collection", None))
    changed: set[str] = set()
    for outcome, hop in wanted:
        sql = "SELECT DISTINCT agent_id FROM note_uses WHERE display_path = ? AND outcome = ?"
        args: tuple[object, ...] = (display_path, outcome)
        if hop is not None:
            sql += " AND hop = ?"
            args += (hop,)
        changed.update(row[0] for row in tx.conn.execute(sql, args))
    return sorted(changed)


_EMBED_ANY = re.compile(r"!\[\[[^\[\]\r\n]+\]\]")
"""An embed, as the expander finds them (``EMBED_RE`` without its group, for splitting)."""


# ---------------------------------------------------------------- reading


def inlining(tx: Transaction, display_path: str) -> list[str]:
    """The agents whose run inlines the note (at hop 1 or 2)."""
    rows = tx.conn.execute(
        "SELECT DISTINCT agent_id FROM note_uses WHERE display_path = ? AND outcome = 'inline'",
        (display_path,),
    )
    return [row[0] for row in rows]


def used_by(tx: Transaction, display_path: str) -> list[Use]:
    """Every row for the path, sorted by agent id, then hop, then via."""
    rows = tx.conn.execute(
        "SELECT u.agent_id, a.name, a.guild_id, u.display_path, u.hop, u.via, u.outcome"
        " FROM note_uses u JOIN agents a ON a.id = u.agent_id WHERE u.display_path = ?"
        " ORDER BY u.agent_id, u.hop, u.via",
        (display_path,),
    )
    return [Use(*row) for row in rows]
