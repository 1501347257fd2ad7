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

# Proposals: a person's draft of a Task's whole text, for an operator to review and publish.
# ``proposals`` holds the newest revision's fields; ``proposal_revisions`` every revision.
# ``version_origins`` says which proposal (or change set) made a version of a Task.
PROPOSALS_SCHEMA = """
CREATE TABLE IF NOT EXISTS proposals (
    id TEXT PRIMARY KEY,
    agent_id TEXT NOT NULL,
    status TEXT NOT NULL,
    title TEXT NOT NULL,
    note TEXT NOT NULL,
    author_id TEXT NOT NULL,
    author_name TEXT NOT NULL,
    author_type TEXT NOT NULL,
    base_version INTEGER NOT NULL,
    revision INTEGER NOT NULL,
    content TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    decided_by_name TEXT,
    decided_at TEXT,
    reason TEXT,
    published_version INTEGER
);
CREATE INDEX IF NOT EXISTS proposals_by_agent ON proposals (agent_id, status);
CREATE INDEX IF NOT EXISTS proposals_by_status ON proposals (status, created_at, id);
CREATE TABLE IF NOT EXISTS proposal_revisions (
    proposal_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    base_version INTEGER NOT NULL,
    title TEXT NOT NULL,
    note TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (proposal_id, revision)
);
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
