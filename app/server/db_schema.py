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
-- The fleet: change sets (many Tasks changed as one reviewed, revertible unit).
CREATE TABLE IF NOT EXISTS change_sets (
    id TEXT PRIMARY KEY,
    serial INTEGER NOT NULL UNIQUE,
    title TEXT NOT NULL,
    author_id TEXT NOT NULL,
    author_name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    reverts_id TEXT
);
CREATE TABLE IF NOT EXISTS change_set_changes (
    change_set_id TEXT NOT NULL REFERENCES change_sets(id),
    position INTEGER NOT NULL,
    agent_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    content_before TEXT NOT NULL,
    content TEXT NOT NULL,
    PRIMARY KEY (change_set_id, agent_id)
);
-- Which change set or proposal made a version (shared with the proposals; each fills its own
-- columns).
CREATE TABLE IF NOT EXISTS version_origins (
    agent_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    proposal_id TEXT,
    proposal_author_name TEXT,
    change_set_id TEXT,
    change_set_title TEXT,
    PRIMARY KEY (agent_id, version)
);
"""
