"""The server database's schema, made and upgraded in numbered steps on every start.

The table ``schema_migrations`` holds one row per step applied. On start, inside one write
transaction (PostgreSQL: under an advisory lock, so several workers starting at once
migrate once), the steps past the database's newest are applied in order; a database whose
newest step this program does not know was made by a newer Taskdesk and is refused with one
line. A database made before the steps were numbered (its tables there, no
``schema_migrations``) is at step 0: step 1 finds its tables and leaves them be.

A feature's new tables are one more ``Step`` at the end of ``STEPS`` (docs/ARCHITECTURE.md,
"Schema migrations"): portable SQLite DDL, translated for PostgreSQL by ``sql_dialect``;
a step that must differ per database gives ``postgresql`` text or a function.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from app.core.models import sha256_hex
from app.server.db_records import DatabaseError, utc_now
from app.server.db_schema import (
    AGENT_HEADS_SCHEMA,
    FLEET_SCHEMA,
    NOTE_SAVES_SCHEMA,
    NOTES_SCHEMA,
    PRESENCE_SCHEMA,
    PROPOSALS_SCHEMA,
    RUNS_IN_ORDER,
    RUNS_TABLE,
    SCHEMA,
    TASK_SHAPES_SCHEMA,
)
from app.server.org_log import ORG_LOG_SCHEMA
from app.server.sql_dialect import postgres_ddl, statements


class Connection(Protocol):
    def execute(self, sql: str, parameters: Any = ..., /) -> Any: ...


class MigratingConnection(Connection, Protocol):
    def run_ddl(self, script: str) -> None: ...


@dataclass(frozen=True, slots=True)
class Step:
    """One numbered change of the schema. ``ddl`` runs on both databases (translated for
    PostgreSQL); ``postgresql`` runs there after it, as written; ``then`` last, with the
    connection and the database's dialect (``sqlite`` or ``postgresql``)."""

    number: int
    name: str
    ddl: str = ""
    postgresql: str = ""
    then: Callable[[Connection, str], None] | None = None


def _runs_spans(conn: Connection, dialect: str) -> None:
    """A SQLite database made before runs kept their spans gets the column."""
    if dialect != "sqlite":
        return
    columns = {row[1] for row in conn.execute("PRAGMA table_info(runs)")}
    if "spans" not in columns:
        conn.execute("ALTER TABLE runs ADD COLUMN spans TEXT")


def _runs_seq(conn: Connection, dialect: str) -> None:
    """Runs made before ``seq`` existed keep their order: SQLite's rowid is it."""
    if dialect == "sqlite":
        conn.execute("UPDATE runs SET seq = rowid")


def _hash_tokens(conn: Connection, dialect: str) -> None:
    """Tokens were kept as given; from here on only their SHA-256 is (``tokens``)."""
    for table in ("people", "agents"):
        rows = conn.execute(f"SELECT id, token FROM {table} WHERE token IS NOT NULL").fetchall()
        for owner_id, token in rows:
            conn.execute(
                f"UPDATE {table} SET token = ? WHERE id = ?", (sha256_hex(token), owner_id)
            )


def _file_sizes(conn: Connection, dialect: str) -> None:
    """Files made before their size was kept get it, counted as the budget counts it."""
    from app.server.note_uses import stored_size

    rows = conn.execute("SELECT display_path, text FROM files WHERE text IS NOT NULL").fetchall()
    for path, text in rows:
        conn.execute("UPDATE files SET size = ? WHERE display_path = ?", (stored_size(text), path))


NOTIFY_TRIGGERS = """
CREATE OR REPLACE FUNCTION taskdesk_ring() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('taskdesk_events', TG_TABLE_NAME);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS org_events_ring ON org_events;
CREATE TRIGGER org_events_ring AFTER INSERT ON org_events
    FOR EACH STATEMENT EXECUTE FUNCTION taskdesk_ring();
DROP TRIGGER IF EXISTS presence_ring ON presence;
CREATE TRIGGER presence_ring AFTER INSERT OR UPDATE OR DELETE ON presence
    FOR EACH STATEMENT EXECUTE FUNCTION taskdesk_ring();
DROP TRIGGER IF EXISTS people_ring ON people;
CREATE TRIGGER people_ring AFTER UPDATE OR DELETE ON people
    FOR EACH STATEMENT EXECUTE FUNCTION taskdesk_ring();
DROP TRIGGER IF EXISTS agents_token_ring ON agents;
CREATE TRIGGER agents_token_ring AFTER UPDATE OF token ON agents
    FOR EACH STATEMENT EXECUTE FUNCTION taskdesk_ring();
"""
"""PostgreSQL rings the LISTEN channel when a change is committed, whichever process (or
``taskdesk admin``) made it: NOTIFY is transactional, delivered at commit or never."""


STEPS: tuple[Step, ...] = (
    Step(1, "tables", SCHEMA + ORG_LOG_SCHEMA + RUNS_TABLE, then=_runs_spans),
    Step(2, "hashed tokens", then=_hash_tokens),
    Step(3, "runs in order", RUNS_IN_ORDER, then=_runs_seq),
    Step(4, "presence", PRESENCE_SCHEMA, postgresql=NOTIFY_TRIGGERS),
    Step(5, "notes' used-by and earlier texts", NOTES_SCHEMA),
    Step(6, "proposals", PROPOSALS_SCHEMA),
    Step(7, "change sets", FLEET_SCHEMA),
    Step(8, "the fleet's kept shape findings", TASK_SHAPES_SCHEMA),
    Step(9, "note saves write nothing per agent", NOTE_SAVES_SCHEMA, then=_file_sizes),
    Step(10, "the fleet reads agents' heads from an index", AGENT_HEADS_SCHEMA),
)
"""Every step, in order; a new feature's tables go at the end as the next number."""

LATEST = STEPS[-1].number

VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL
)
"""

_LOCK_KEY = int(hashlib.sha256(b"taskdesk migrations").hexdigest()[:15], 16)


class _SqliteDdl:
    """SQLite's connection with ``run_ddl``: a script's statements one by one, inside the
    migration's transaction (``executescript`` would commit it first)."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def execute(self, sql: str, parameters: Any = (), /) -> Any:
        return self._conn.execute(sql, parameters)

    def run_ddl(self, script: str) -> None:
        for statement in statements(script):
            self._conn.execute(statement)


def _ddl(script: str, dialect: str) -> str:
    return postgres_ddl(script) if dialect == "postgresql" else script


def schema_version(conn: Connection) -> int:
    row = conn.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def migrate(conn: Connection, dialect: str, where: str) -> int:
    """Bring the database up to ``LATEST`` inside the caller's write transaction; the
    steps applied. DatabaseError (one line) for a database newer than this program."""
    db: MigratingConnection
    if dialect == "postgresql":
        db = conn  # type: ignore[assignment]  # a PgConnection
        db.execute("SELECT pg_advisory_xact_lock(?)", (_LOCK_KEY,))
    else:
        db = _SqliteDdl(conn)
    db.run_ddl(_ddl(VERSION_TABLE, dialect))
    current = schema_version(db)
    if current > LATEST:
        raise DatabaseError(
            f"database {where} was made by a newer Taskdesk (schema version {current}; this"
            f" one knows up to {LATEST}): upgrade Taskdesk to use it"
        )
    applied = 0
    for step in STEPS:
        if step.number <= current:
            continue
        if step.ddl:
            db.run_ddl(_ddl(step.ddl, dialect))
        if step.postgresql and dialect == "postgresql":
            db.run_ddl(step.postgresql)
        if step.then is not None:
            step.then(db, dialect)
        db.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
            (step.number, step.name, utc_now()),
        )
        applied += 1
    return applied
