"""The reference server's tables: the storage the spec describes, plus files and runs."""

from __future__ import annotations

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS guilds (id TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS people (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL, token TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS agents (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    guild_id TEXT NOT NULL REFERENCES guilds(id),
    token TEXT UNIQUE,
    task TEXT NOT NULL,
    task_version INTEGER NOT NULL,
    task_hash TEXT NOT NULL,
    task_updated_at TEXT NOT NULL,
    task_updated_by_type TEXT NOT NULL,
    task_updated_by_id TEXT NOT NULL,
    task_updated_by_name TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS agents_by_guild ON agents (guild_id, id);
CREATE TABLE IF NOT EXISTS task_revisions (
    agent_id TEXT NOT NULL REFERENCES agents(id),
    version INTEGER NOT NULL,
    content_text TEXT NOT NULL,
    replaced_at TEXT NOT NULL,
    replaced_by_type TEXT NOT NULL,
    replaced_by_id TEXT NOT NULL,
    replaced_by_name TEXT NOT NULL,
    PRIMARY KEY (agent_id, version)
);
CREATE TABLE IF NOT EXISTS files (
    display_path TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    title TEXT NOT NULL,
    text TEXT,
    version INTEGER NOT NULL,
    access TEXT NOT NULL,
    deleted_at TEXT
);
-- The picker's list reads these columns only: from the index, never the pages of note text.
CREATE INDEX IF NOT EXISTS files_for_the_picker
    ON files (display_path, kind, title, access) WHERE deleted_at IS NULL;
CREATE TABLE IF NOT EXISTS file_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    display_path TEXT NOT NULL,
    action TEXT NOT NULL,
    version INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    changed_at TEXT NOT NULL,
    changed_by_type TEXT NOT NULL,
    changed_by_id TEXT NOT NULL,
    changed_by_name TEXT NOT NULL
);
"""

# ---------------------------------------------------------------- presence (team server)
PRESENCE_SCHEMA = """
CREATE TABLE IF NOT EXISTS presence (
    agent_id TEXT NOT NULL REFERENCES agents(id),
    person_id TEXT NOT NULL,
    name TEXT NOT NULL,
    editing INTEGER NOT NULL,
    since TEXT NOT NULL,
    seen_at TEXT NOT NULL,
    PRIMARY KEY (agent_id, person_id)
);
"""
"""Who has a Task open (``editing`` 0) or is changing it (1): one row per person and agent,
``since`` when the editing began (or the looking), ``seen_at`` their last call; a row lapses
60 s after ``seen_at`` (``presence_records``)."""
