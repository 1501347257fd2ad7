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
  re-expands nobody and writes nothing per agent: the agents whose expanded Task changes
  are read off the rows (kept per note and kind of edit while its rows keep their version,
  ``note_use_versions``: the hot note's next prose save hands on the list its last one made),
  and a run's embedded bytes are summed from the rows and the notes' sizes when read
  (``runs_now``), so a note's new size needs no write to each run that inlines it.

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
from app.server.org_log import EncodedAgentIds


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


def index_agent(
    tx: Transaction, agent: AgentRecord, task_text: str, *, fresh: bool = False
) -> Expansion:
    """Replace the agent's rows with what a run of ``task_text`` meets; the expansion.
    ``fresh``: the index is being built from nothing (no rows to compare or versions to
    move)."""
    expansion = expand_as_run(tx, agent, task_text)
    uses = uses_of(expansion, task_display_path(tx.meta("org_id"), agent.id))
    if fresh:
        _insert(tx, agent.id, uses)
    else:
        _store(tx, agent.id, uses)
    broken = json.dumps([b.to_json() for b in expansion.broken])
    tx.conn.execute(
        "INSERT INTO agent_runs (agent_id, broken) VALUES (?, ?)"
        " ON CONFLICT (agent_id) DO UPDATE SET broken = excluded.broken",
        (agent.id, broken),
    )
    return expansion


@dataclass(frozen=True, slots=True)
class RunNow:
    """What a run of the agent gets now: its embedded bytes (the sizes of the notes it
    inlines, by the index) and its broken embeds (kept beside the index, ``agent_runs``)."""

    embedded_bytes: int
    broken: tuple[BrokenEmbed, ...]


_CHUNK = 500
"""Ids per ``IN (…)``: within any database's parameter limit."""

INLINE_SIZES = (
    "SELECT u.agent_id, SUM(f.size) FROM note_uses u JOIN files f"
    " ON f.display_path = u.display_path AND f.deleted_at IS NULL WHERE u.outcome = 'inline'"
)
"""Each agent's embedded bytes: a run inlines a note once (the next embed of it gets its
title), so one ``inline`` row of the agent's stands for each note it inlines; add
``GROUP BY u.agent_id`` (after any narrowing)."""


def runs_now(tx: Transaction, agent_ids: list[str]) -> dict[str, RunNow]:
    """The embedded bytes and broken embeds of each agent's run now.

    A run's embedded bytes are the sizes of the notes it inlines, each once (the expander
    counts nothing else): the index's ``inline`` rows name them, so the sum is worked out
    here from each note's kept size (``files.size``), and a note save writes nothing for it."""
    broken: dict[str, tuple[BrokenEmbed, ...]] = {}
    sizes: dict[str, int] = {}
    for start in range(0, len(agent_ids), _CHUNK):
        chunk = agent_ids[start : start + _CHUNK]
        marks = ", ".join("?" for _ in chunk)
        rows = tx.conn.execute(
            f"SELECT agent_id, broken FROM agent_runs WHERE agent_id IN ({marks})", chunk
        )
        for agent_id, kept in rows:
            broken[agent_id] = tuple(
                BrokenEmbed(b["path"], b["hop"], b["in"]) for b in json.loads(kept)
            )
        rows = tx.conn.execute(
            INLINE_SIZES + f" AND u.agent_id IN ({marks}) GROUP BY u.agent_id", chunk
        )
        sizes.update((agent_id, int(total)) for agent_id, total in rows)
    return {agent_id: RunNow(sizes.get(agent_id, 0), found) for agent_id, found in broken.items()}


def stored_size(text: str | None) -> int:
    """A note's bytes as the budget counts them (the expander's count)."""
    return len((text or "").encode("utf-8", "surrogatepass"))


Rows = dict[tuple[str, int, str], str]


def _insert(tx: Transaction, agent_id: str, uses: Rows) -> None:
    tx.conn.executemany(
        "INSERT INTO note_uses (agent_id, display_path, hop, via, outcome) VALUES (?, ?, ?, ?, ?)",
        [(agent_id, path, hop, via, outcome) for (path, hop, via), outcome in uses.items()],
    )


def _store(tx: Transaction, agent_id: str, uses: Rows) -> None:
    """The agent's rows become ``uses``; each path whose rows differ moves to a new version
    (what a kept list of the agents a note save changes is checked against)."""
    kept: Rows = {
        (path, hop, via): outcome
        for path, hop, via, outcome in tx.conn.execute(
            "SELECT display_path, hop, via, outcome FROM note_uses WHERE agent_id = ?",
            (agent_id,),
        )
    }
    if kept == uses:
        return
    moved = {key[0] for key in kept.keys() ^ uses.keys()}
    moved.update(key[0] for key in kept.keys() & uses.keys() if kept[key] != uses[key])
    tx.conn.execute("DELETE FROM note_uses WHERE agent_id = ?", (agent_id,))
    _insert(tx, agent_id, uses)
    # In one order on every process: PostgreSQL's row locks are taken without a deadlock.
    tx.conn.executemany(
        "INSERT INTO note_use_versions (display_path, version) VALUES (?, 1)"
        " ON CONFLICT (display_path) DO UPDATE SET version = note_use_versions.version + 1",
        [(path,) for path in sorted(moved)],
    )


def task_changed(
    tx: Transaction, agent_id: str, task_text: str, old_text: str | None = None
) -> None:
    """A Task was saved (or an agent added): its agent's rows follow the new text. A save
    that keeps the Task's embeds, the same paths in the same order, makes every lookup of
    the run as before: no row, size or marker can change, and nothing is re-expanded."""
    if tx.uses_deferred:
        return
    if old_text is not None and same_embeds(old_text, task_text):
        return
    agent = tx.agent(agent_id)
    if agent is not None:
        index_agent(tx, agent, task_text)


def rebuild(tx: Transaction) -> None:
    """Index every agent afresh (after seeding, or a database made before the index)."""
    for table in ("note_uses", "agent_runs", "note_use_versions", "note_changed_agents"):
        tx.conn.execute(f"DELETE FROM {table}")
    for agent in tx.agents():
        task = tx.task(agent.id, with_revisions=False)
        assert task is not None
        index_agent(tx, agent, task.content, fresh=True)
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


def same_embeds(old: str | None, new: str | None) -> bool:
    """Whether both texts embed the same paths in the same order. The embeds as written are
    compared first: the same there is the same paths (the usual save, a Task's prose edited)."""
    return _EMBED_ANY.findall(old or "") == _EMBED_ANY.findall(new or "") or embeds_in(
        old
    ) == embeds_in(new)


def same_lookups(old: OrgFile | None, new: OrgFile | None) -> bool:
    """Whether every expansion's lookups answer as before: no row of the index can change."""
    if old is None or new is None or old.kind != new.kind or old.access != new.access:
        return False
    return old.kind != "note" or same_embeds(old.text, new.text)


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


def after_file_change(tx: Transaction, before: FileBefore) -> list[str] | EncodedAgentIds:
    """Bring the index up to date after the write; the agents whose expanded Task it changed.

    An edit that keeps every lookup writes nothing per agent: no row changes, each run's
    size is summed when read (``runs_now``), and the agents it changed are the list kept for
    this kind of edit of the note while its rows keep their version (made and kept here
    otherwise), handed on encoded."""
    if tx.uses_deferred:
        return []
    new = tx.file(before.display_path)
    if same_lookups(before.old, new):
        assert before.old is not None and new is not None
        edit = _edit_of(before.old, new)
        if not edit:
            return []
        return EncodedAgentIds(_kept_list(tx, before.display_path, edit))
    changed: list[str] = []
    for agent in _agents_looking_up(tx, before.display_path):
        task = tx.task(agent.id, with_revisions=False)
        assert task is not None
        text = index_agent(tx, agent, task.content).text
        if before.expanded.get(agent.id) != text:
            changed.append(agent.id)
    return changed


Edit = tuple[tuple[str, int | None], ...]
"""The (outcome, hop) rows whose agents' expanded Task an in-place edit changes."""


def _edit_of(old: OrgFile, new: OrgFile) -> Edit:
    """Rows unchanged: an agent's expanded Task changes where it inlines the note and what
    it inlines differs (at hop 1 the text between the embeds, since the embeds are the same
    paths; at hop 2 the text as written, embeds and all), or shows its title and that differs."""
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
    return tuple(wanted)


def _edit_key(edit: Edit) -> str:
    return ",".join(f"{outcome}{'' if hop is None else hop}" for outcome, hop in edit)


def _uses_version(tx: Transaction, display_path: str) -> int:
    row = tx.conn.execute(
        "SELECT version FROM note_use_versions WHERE display_path = ?", (display_path,)
    ).fetchone()
    return int(row[0]) if row else 0


def _kept(tx: Transaction, display_path: str, edit: Edit) -> tuple[int, str | None]:
    """The version of the note's rows, and the list kept for the edit if made at it.

    The version is read first: a list read after it that another process's commit made
    newer is kept under the older version, and only ever missed, never handed on stale."""
    version = _uses_version(tx, display_path)
    row = tx.conn.execute(
        "SELECT uses_version, agent_ids FROM note_changed_agents"
        " WHERE display_path = ? AND edit = ?",
        (display_path, _edit_key(edit)),
    ).fetchone()
    return version, (row[1] if row is not None and int(row[0]) == version else None)


def _kept_list(tx: Transaction, display_path: str, edit: Edit) -> str:
    """The agents an ``edit`` of the note changes as an encoded list, kept for the next."""
    version, kept = _kept(tx, display_path, edit)
    if kept is not None:
        return kept
    text = json.dumps(_agents_changed(tx, display_path, edit))
    tx.conn.execute(
        "INSERT INTO note_changed_agents (display_path, edit, uses_version, agent_ids)"
        " VALUES (?, ?, ?, ?) ON CONFLICT (display_path, edit) DO UPDATE SET"
        " uses_version = excluded.uses_version, agent_ids = excluded.agent_ids",
        (display_path, _edit_key(edit), version, text),
    )
    return text


def _agents_changed(tx: Transaction, display_path: str, edit: Edit) -> list[str]:
    changed: set[str] = set()
    for outcome, hop in edit:
        sql = "SELECT DISTINCT agent_id FROM note_uses WHERE display_path = ? AND outcome = ?"
        args: tuple[object, ...] = (display_path, outcome)
        if hop is not None:
            sql += " AND hop = ?"
            args += (hop,)
        changed.update(row[0] for row in tx.conn.execute(sql, args))
    return sorted(changed)


def changed_in_place(
    tx: Transaction, display_path: str, old: OrgFile | None, new: OrgFile | None
) -> list[str]:
    """The agents whose expanded Task an edit that keeps every lookup changes (``_edit_of``),
    sorted; read-only (the impact asks it in a read), the kept list used where it holds."""
    assert old is not None and new is not None
    edit = _edit_of(old, new)
    if not edit:
        return []
    _, kept = _kept(tx, display_path, edit)
    return list(json.loads(kept)) if kept is not None else _agents_changed(tx, display_path, edit)


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
