"""The reference server's database: every query, in one transaction on either backend.

The storage is the one the spec describes: the live Task on the agent row (``task``,
``task_version``, ``task_hash``, ``task_updated_at``), earlier texts in ``task_revisions``
(newest 50 kept), a ``file_changes`` row per save, and runs that keep the Task they started
with. Every query is written once in SQL both SQLite and PostgreSQL take (``sql_dialect``);
``pg_database`` runs the same ``Transaction`` on PostgreSQL. On SQLite writes run in
``BEGIN IMMEDIATE`` under a process lock; on PostgreSQL a save locks its agent's row. Either
way a version check and the write that follows it are one atomic step with many clients.
The schema is made and upgraded by ``migrations`` when the database opens.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from app.core.limits import MAX_REVISIONS, utf8_len
from app.core.models import AccessEntry, Kind, OrgFile, sha256_hex
from app.server import note_revisions, note_uses
from app.server.callers import Caller
from app.server.db_records import (
    AgentRecord,
    DatabaseError,
    FileEmbeddedError,
    RevisionRecord,
    TaskRecord,
    VersionConflictError,
    access_list,
    embedded_paths,
    file_kind,
    org_file,
    person_type,
    utc_now,
)
from app.server.org_log import record_event
from app.server.sql_dialect import like_pattern
from app.server.tokens import REVOKED, matches, revoked_marker, token_digest


class Transaction:
    """Every query the server runs, on one connection inside one transaction."""

    def __init__(self, conn: Any) -> None:
        self.conn: sqlite3.Connection = conn  # or pg_database.PgConnection, which acts alike
        # Seeding writes every agent and note, then builds the used-by index once.
        self.uses_deferred = False
        # What ``meta`` read or ``set_meta`` wrote in this transaction: the org's id is asked
        # for twice in every save, and saves gathered in one transaction ask again each.
        self._meta: dict[str, str] = {}

    # ------------------------------------------------------------ org, people, agents

    def is_seeded(self) -> bool:
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'org_id'").fetchone()
        return row is not None

    def meta(self, key: str) -> str:
        value = self._meta.get(key)
        if value is not None:
            return value
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if row is None:
            raise DatabaseError(f"the database has no {key}; it was never seeded")
        value = self._meta[key] = str(row[0])
        return value

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )
        self._meta[key] = value

    def caller_for_token(self, token: str) -> Caller | None:
        """Whose token this is; only its SHA-256 is stored (``tokens``)."""
        digest = token_digest(token)
        row = self.conn.execute(
            "SELECT id, name, type, token FROM people WHERE token = ?", (digest,)
        ).fetchone()
        if row is not None and matches(row[3], token):
            return Caller(row[0], row[1], person_type(row[2]))
        row = self.conn.execute(
            "SELECT id, name, guild_id, token FROM agents WHERE token = ?", (digest,)
        ).fetchone()
        if row is not None and matches(row[3], token):
            return Caller(row[0], row[1], "agent", guild_id=row[2])
        return None

    def person(self, person_id: str) -> Caller | None:
        row = self.conn.execute(
            "SELECT id, name, type FROM people WHERE id = ?", (person_id,)
        ).fetchone()
        return Caller(row[0], row[1], person_type(row[2])) if row else None

    def add_guild(self, guild_id: str, name: str) -> None:
        self.conn.execute("INSERT INTO guilds (id, name) VALUES (?, ?)", (guild_id, name))

    def add_person(self, person_id: str, name: str, type_: str, token: str) -> None:
        self.conn.execute(
            "INSERT INTO people (id, name, type, token) VALUES (?, ?, ?, ?)",
            (person_id, name, type_, token_digest(token)),
        )

    def add_agent(
        self,
        agent_id: str,
        name: str,
        guild_id: str,
        token: str | None,
        task: str,
        *,
        at: str,
        by: Caller,
    ) -> None:
        """A new agent whose starting Task is version 1."""
        self.conn.execute(
            "INSERT INTO agents (id, name, guild_id, token, task, task_version, task_hash,"
            " task_updated_at, task_updated_by_type, task_updated_by_id, task_updated_by_name)"
            " VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)",
            (
                agent_id,
                name,
                guild_id,
                None if token is None else token_digest(token),
                task,
                sha256_hex(task),
                at,
                by.type,
                by.id,
                by.name,
            ),
        )
        note_uses.task_changed(self, agent_id, task)

    def replace_tokens(self, tokens: dict[str, str]) -> None:
        """Give the people and agents named (by id) new tokens; the old ones stop working."""
        for owner_id, token in tokens.items():
            digest = token_digest(token)
            self.conn.execute("UPDATE people SET token = ? WHERE id = ?", (digest, owner_id))
            self.conn.execute("UPDATE agents SET token = ? WHERE id = ?", (digest, owner_id))

    def revoke_token(self, owner_id: str) -> bool:
        """The person's or agent's token stops working; False when there is no such id."""
        marker = revoked_marker(owner_id)
        found = self.conn.execute(
            "UPDATE people SET token = ? WHERE id = ?", (marker, owner_id)
        ).rowcount
        found += self.conn.execute(
            "UPDATE agents SET token = ? WHERE id = ?", (marker, owner_id)
        ).rowcount
        return found > 0

    def people(self) -> list[tuple[str, str, str, str]]:
        """Every person and agent as (id, name, type, token state), people first; the
        state is ``token works``, ``revoked`` or ``no token``."""
        rows: list[tuple[str, str, str, str]] = [
            (r[0], r[1], person_type(r[2]), _token_state(r[3]))
            for r in self.conn.execute("SELECT id, name, type, token FROM people ORDER BY id")
        ]
        rows += [
            (r[0], r[1], "agent", _token_state(r[2]))
            for r in self.conn.execute("SELECT id, name, token FROM agents ORDER BY id")
        ]
        return rows

    def guilds(self) -> list[tuple[str, str]]:
        return [tuple(r) for r in self.conn.execute("SELECT id, name FROM guilds ORDER BY id")]

    def guild_exists(self, guild_id: str) -> bool:
        row = self.conn.execute("SELECT 1 FROM guilds WHERE id = ?", (guild_id,)).fetchone()
        return row is not None

    def agents(self, guild_id: str | None = None) -> list[AgentRecord]:
        sql = "SELECT id, name, guild_id, task_version FROM agents"
        args: tuple[str, ...] = ()
        if guild_id is not None:
            sql += " WHERE guild_id = ?"
            args = (guild_id,)
        return [AgentRecord(*row) for row in self.conn.execute(sql + " ORDER BY id", args)]

    def agent(self, agent_id: str) -> AgentRecord | None:
        row = self.conn.execute(
            "SELECT id, name, guild_id, task_version FROM agents WHERE id = ?", (agent_id,)
        ).fetchone()
        return AgentRecord(*row) if row else None

    # ------------------------------------------------------------ the Task

    def task(self, agent_id: str, *, with_revisions: bool = True) -> TaskRecord | None:
        row = self.conn.execute(
            "SELECT task, task_version, task_hash, task_updated_at, task_updated_by_type,"
            " task_updated_by_id, task_updated_by_name FROM agents WHERE id = ?",
            (agent_id,),
        ).fetchone()
        if row is None:
            return None
        revisions: tuple[RevisionRecord, ...] = ()
        if with_revisions:
            revisions = tuple(
                RevisionRecord(*r)
                for r in self.conn.execute(
                    "SELECT version, content_text, replaced_at, replaced_by_type, replaced_by_id,"
                    " replaced_by_name FROM task_revisions WHERE agent_id = ?"
                    " ORDER BY version DESC",
                    (agent_id,),
                )
            )
        content, version, digest, updated_at, by_type, by_id, by_name = row
        return TaskRecord(
            agent_id, content, version, digest, updated_at, by_type, by_id, by_name, revisions
        )

    def save_task(
        self,
        agent_id: str,
        content: str,
        *,
        expected_version: int | None,
        by: Caller,
        at: str | None = None,
        event: str | None = "task_saved",
        **event_data: Any,
    ) -> bool:
        """Replace the live Task; False when the text is unchanged (nothing is written).

        Call inside ``ServerDatabase.write()``: the version check and the write must be one
        step. Raises VersionConflictError when ``expected_version`` is not the live version.
        ``event`` is the change log's kind for the save (``task_restored`` for a restore);
        None when the caller records one event for many saves (a change set).
        """
        # Claim the agent's row first: on PostgreSQL the no-op update locks it until the
        # commit, so a concurrent save waits here and then reads the version this one made.
        # SQLite's writers are one at a time already (BEGIN IMMEDIATE): no claim is needed.
        if getattr(self.conn, "dialect", "sqlite") == "postgresql":  # a PgConnection
            self.conn.execute(
                "UPDATE agents SET task_version = task_version WHERE id = ?", (agent_id,)
            )
        live = self.task(agent_id, with_revisions=False)
        if live is None:
            raise KeyError(agent_id)
        if expected_version is not None and expected_version != live.version:
            raise VersionConflictError(live.version)
        if content == live.content:
            return False
        when = at or utc_now()
        if live.content:  # an empty previous text is not worth a version to restore
            self.conn.execute(
                "INSERT INTO task_revisions (agent_id, version, content_text, replaced_at,"
                " replaced_by_type, replaced_by_id, replaced_by_name)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (agent_id, live.version, live.content, when, by.type, by.id, by.name),
            )
            # Older than the newest MAX_REVISIONS (none while there are fewer: NULL): an
            # index range, where NOT IN (the newest) built the list of them on every save.
            self.conn.execute(
                "DELETE FROM task_revisions WHERE agent_id = ? AND version <"
                " (SELECT version FROM task_revisions WHERE agent_id = ?"
                "  ORDER BY version DESC LIMIT 1 OFFSET ?)",
                (agent_id, agent_id, MAX_REVISIONS - 1),
            )
        version = live.version + 1
        digest = sha256_hex(content)
        self.conn.execute(
            "UPDATE agents SET task = ?, task_version = ?, task_hash = ?, task_updated_at = ?,"
            " task_updated_by_type = ?, task_updated_by_id = ?, task_updated_by_name = ?"
            " WHERE id = ?",
            (content, version, digest, when, by.type, by.id, by.name, agent_id),
        )
        note_uses.task_changed(self, agent_id, content, live.content)
        org_id = self.meta("org_id")
        self._file_change(
            f"org/{org_id}/agents/{agent_id}/task.md", "save", version, content, when, by, digest
        )
        if event is not None:
            record_event(
                self.conn,
                event,
                at=when,
                by_name=by.name,
                agent_ids=[agent_id],
                version=version,
                **event_data,
            )
        return True

    def _file_change(
        self,
        path: str,
        action: str,
        version: int,
        text: str,
        at: str,
        by: Caller,
        digest: str | None = None,  # the text's, when the caller has it already
    ) -> None:
        self.conn.execute(
            "INSERT INTO file_changes (display_path, action, version, content_hash, bytes,"
            " changed_at, changed_by_type, changed_by_id, changed_by_name)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                path,
                action,
                version,
                digest or sha256_hex(text),
                utf8_len(text),
                at,
                by.type,
                by.id,
                by.name,
            ),
        )

    def file_changes(self, path: str) -> list[dict[str, Any]]:
        cur = self.conn.execute(
            "SELECT action, version, content_hash, bytes, changed_at, changed_by_type,"
            " changed_by_id, changed_by_name FROM file_changes WHERE display_path = ?"
            " ORDER BY id",
            (path,),
        )
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row, strict=True)) for row in cur]

    def agents_embedding(self, display_path: str) -> list[str]:
        """Agents whose live Task text embeds ``display_path`` directly, sorted."""
        # LIKE narrows the rows cheaply (SQLite's ignores case: more rows, never fewer);
        # the embed parser decides.
        rows = self.conn.execute(
            "SELECT id, task FROM agents WHERE task LIKE ? ESCAPE '\\' ORDER BY id",
            (like_pattern(display_path),),
        )
        return [agent_id for agent_id, task in rows if display_path in embedded_paths(task)]

    # ------------------------------------------------------------ notes and other files

    def file(self, display_path: str) -> OrgFile | None:
        row = self.conn.execute(
            "SELECT display_path, kind, title, text, version, access FROM files"
            " WHERE display_path = ? AND deleted_at IS NULL",
            (display_path,),
        ).fetchone()
        return org_file(row) if row else None

    def files(self) -> list[OrgFile]:
        rows = self.conn.execute(
            "SELECT display_path, kind, title, text, version, access FROM files"
            " WHERE deleted_at IS NULL ORDER BY display_path"
        )
        return [org_file(row) for row in rows]

    def embeddable_files(self) -> list[tuple[str, Kind, str, tuple[AccessEntry, ...]]]:
        """Each note and collection as (display path, kind, title, access), without its text:
        what the picker lists. Access lists repeat across files: each is decoded once."""
        rows = self.conn.execute(
            "SELECT display_path, kind, title, access FROM files WHERE deleted_at IS NULL"
            " AND kind IN ('note', 'collection') ORDER BY display_path"
        )
        decoded: dict[str, tuple[AccessEntry, ...]] = {}
        found: list[tuple[str, Kind, str, tuple[AccessEntry, ...]]] = []
        for path, kind, title, access in rows:
            entries = decoded.get(access)
            if entries is None:
                entries = decoded[access] = access_list(access)
            found.append((path, file_kind(kind), title, entries))
        return found

    def files_generation(self) -> int:
        """Goes up whenever a note or collection is put or deleted (keys cached answers)."""
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'files_generation'").fetchone()
        return int(row[0]) if row else 0

    def _files_changed(self) -> None:
        self.conn.execute(
            "INSERT INTO meta (key, value) VALUES ('files_generation', '1') ON CONFLICT(key)"
            " DO UPDATE SET value = CAST(CAST(meta.value AS INTEGER) + 1 AS TEXT)"
        )

    def put_file(self, file: OrgFile, *, by: Caller, at: str | None = None) -> OrgFile:
        """Create or replace a file; a replaced file's version goes up by one."""
        when = at or utc_now()
        before = note_uses.before_file_change(self, file.display_path, file)
        old = self.conn.execute(
            "SELECT version FROM files WHERE display_path = ?", (file.display_path,)
        ).fetchone()
        version = old[0] + 1 if old else file.version
        access = json.dumps([{"principal": e.principal, "role": e.role} for e in file.access])
        self.conn.execute(
            "INSERT INTO files (display_path, kind, title, text, size, version, access,"
            " deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL) ON CONFLICT (display_path) DO UPDATE"
            " SET kind = excluded.kind, title = excluded.title, text = excluded.text,"
            " size = excluded.size, version = excluded.version, access = excluded.access,"
            " deleted_at = NULL",
            (
                file.display_path,
                file.kind,
                file.title,
                file.text,
                note_uses.stored_size(file.text),
                version,
                access,
            ),
        )
        self._file_change(file.display_path, "put", version, file.text or "", when, by)
        self._files_changed()
        if before.old is not None and before.old.kind == "note" and before.old.text != file.text:
            note_revisions.archive(
                self.conn,
                file.display_path,
                before.old.version,
                before.old.text or "",
                at=when,
                by_name=by.name,
            )
        record_event(
            self.conn,
            "note_saved" if old else "note_created",
            at=when,
            by_name=by.name,
            agent_ids=note_uses.after_file_change(self, before),
            display_path=file.display_path,
            version=version,
        )
        stored = self.file(file.display_path)
        assert stored is not None
        return stored

    def delete_file(self, display_path: str, *, by: Caller) -> bool:
        """Delete a file; False when there is none. Raises FileEmbeddedError when Tasks embed it."""
        found = self.file(display_path)
        if found is None:
            return False
        embedding = self.agents_embedding(display_path)
        if embedding:
            raise FileEmbeddedError(embedding)
        before = note_uses.before_file_change(self, display_path, None)
        when = utc_now()
        self.conn.execute(
            "UPDATE files SET deleted_at = ? WHERE display_path = ?", (when, display_path)
        )
        self._file_change(display_path, "delete", found.version, "", when, by)
        self._files_changed()
        record_event(
            self.conn,
            "note_deleted",
            at=when,
            by_name=by.name,
            agent_ids=note_uses.after_file_change(self, before),
            display_path=display_path,
            version=found.version,
        )
        return True


def _token_state(stored: str | None) -> str:
    if stored is None:
        return "no token"
    return "revoked" if stored.startswith(REVOKED) else "token works"
