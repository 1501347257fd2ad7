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

# ---------------------------------------------------------------------- notes (blast radius)

NOTES_SCHEMA = """
-- Notes with their blast radius: the used-by index (app/server/note_uses.py) and a note's
-- kept earlier texts (app/server/note_revisions.py). agent_runs: each run's broken embeds now,
-- kept with the index (the impact's "before"; its embedded bytes were kept here too until
-- NOTE_SAVES_SCHEMA: they are summed from the index and files.size on reading).
CREATE TABLE IF NOT EXISTS note_uses (
    agent_id TEXT NOT NULL,
    display_path TEXT NOT NULL,
    hop INTEGER NOT NULL,
    via TEXT NOT NULL,
    outcome TEXT NOT NULL,
    PRIMARY KEY (agent_id, display_path, hop, via)
);
CREATE INDEX IF NOT EXISTS note_uses_by_path ON note_uses (display_path, agent_id, hop, via);
-- Who inlines or repeats a note: what a note save logs, without reading each row.
CREATE INDEX IF NOT EXISTS note_uses_by_outcome ON note_uses (display_path, outcome, hop, agent_id);
CREATE TABLE IF NOT EXISTS agent_runs (
    agent_id TEXT PRIMARY KEY,
    embedded_bytes INTEGER NOT NULL,
    broken TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS note_revisions (
    display_path TEXT NOT NULL,
    version INTEGER NOT NULL,
    text TEXT NOT NULL,
    replaced_at TEXT NOT NULL,
    replaced_by_name TEXT NOT NULL,
    PRIMARY KEY (display_path, version)
);
"""

NOTE_SAVES_SCHEMA = """
-- A note save that keeps its embeds changes no row of the index, so nothing is written per
-- agent (app/server/note_uses.py): a run's embedded bytes are summed from the index and each
-- note's size (its text's UTF-8 bytes, kept with the text) when read, and the agents a save
-- of the note changes, which its log row lists, are kept per note and kind of edit, valid
-- while the note's rows keep their version.
ALTER TABLE agent_runs DROP COLUMN embedded_bytes;
ALTER TABLE files ADD COLUMN size INTEGER NOT NULL DEFAULT 0;
-- The sum reads each inlined note's size from here, never the pages of its text.
CREATE INDEX IF NOT EXISTS files_sizes ON files (display_path, deleted_at, size);
CREATE TABLE IF NOT EXISTS note_use_versions (
    display_path TEXT PRIMARY KEY,
    version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS note_changed_agents (
    display_path TEXT NOT NULL,
    edit TEXT NOT NULL,
    uses_version INTEGER NOT NULL,
    agent_ids TEXT NOT NULL,
    PRIMARY KEY (display_path, edit)
);
"""

# ---------------------------------------------------------------------- runs (the Runs tab)

RUNS_TABLE = """
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    agent_id TEXT NOT NULL REFERENCES agents(id),
    created_at TEXT NOT NULL,
    created_by_id TEXT NOT NULL,
    system_prompt TEXT NOT NULL,
    task_source TEXT NOT NULL,
    spans TEXT
);
CREATE INDEX IF NOT EXISTS runs_by_agent ON runs (agent_id, created_at);
"""


RUNS_IN_ORDER = "ALTER TABLE runs ADD COLUMN seq INTEGER;"
"""Each run's place among its agent's runs (1, 2, …): what orders runs made in the same
millisecond (the table is made by ``migrations``)."""

# ---------------------------------------------------------------- proposals
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

# ---------------------------------------------------------------- change sets (the fleet)
# Many Tasks changed as one reviewed, revertible unit. ``version_origins`` (above) names the
# change set that made a version, in its own columns.
FLEET_SCHEMA = """
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
"""

# ---------------------------------------------------------------- the fleet's kept figures
# Each live Task's shape findings by the Task's hash (app/server/task_shapes.py), with the
# version of the check that found them: a fleet read answers from here after a start.
TASK_SHAPES_SCHEMA = """
CREATE TABLE IF NOT EXISTS task_shapes (
    task_hash TEXT PRIMARY KEY,
    checker TEXT NOT NULL,
    codes TEXT NOT NULL
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

AGENT_HEADS_SCHEMA = """
-- The fleet reads every agent's head (id, name, guild, version, Task hash) on each health
-- read and search: from this index, never the agents' rows, whose Task texts sit between.
CREATE INDEX IF NOT EXISTS agents_heads ON agents (id, name, guild_id, task_version, task_hash);
"""
