"""The offline cache: each kind of value comes back equal, with when it was fetched."""

from __future__ import annotations

import dataclasses
import sqlite3
from contextlib import closing
from datetime import UTC, datetime

import orjson
import pytest

from app.client.parse import embed_status_from
from app.core.models import (
    AccessEntry,
    AgentEmbedStatus,
    AgentRow,
    BrokenEmbed,
    Guild,
    Me,
    OrgFile,
    Revision,
)
from app.store import LocalStore, cache_codec
from tests.factories import task_doc

SERVER = "http://127.0.0.1:5000"
OTHER = "https://other.example"

TASK = task_doc(
    "a_scout",
    "Watch ![[org/o_acme/guilds/guild_ops/style-guide.md]]",
    3,
    Revision(2, "older", "2026-01-02T00:00:00Z", "Ann"),
    Revision(1, "oldest", "2026-01-01T00:00:00Z", "Bob"),
    etag='"v3-abc"',
)
NOTE = OrgFile(
    display_path="org/o_acme/guilds/guild_ops/style-guide.md",
    kind="note",
    title="Style guide",
    text="Write short sentences.\n",
    version=2,
    access=(AccessEntry("guild:guild_ops", "read"), AccessEntry("agent:a_scout", "write")),
)


def test_every_kind_round_trips_with_its_fetch_time(store: LocalStore, clock) -> None:
    me = Me("u_ann", "Ann", "operator", "o_acme")
    agents = [AgentRow("a_scout", "Scout", "guild_ops", 3)]
    guilds = [Guild("guild_ops", "Operations")]
    status = [
        AgentEmbedStatus("a_scout", (BrokenEmbed("org/o_acme/gone.md", 1, TASK.display_path),)),
        AgentEmbedStatus("a_quiet"),
    ]
    store.put_me(SERVER, me)
    store.put_agents(SERVER, agents)
    store.put_guilds(SERVER, guilds)
    store.put_task(SERVER, TASK)
    store.put_note(SERVER, NOTE)
    store.put_embed_status(SERVER, "guild_ops", status)
    fetched = datetime.fromtimestamp(clock.now, UTC)

    assert store.get_me(SERVER) == (me, fetched)
    assert store.get_agents(SERVER) == (agents, fetched)
    assert store.get_guilds(SERVER) == (guilds, fetched)
    assert store.get_task(SERVER, "a_scout") == (TASK, fetched)
    assert store.get_note(SERVER, NOTE.display_path) == (NOTE, fetched)
    assert store.get_embed_status(SERVER, "guild_ops") == (status, fetched)


def test_get_task_unpacks_as_doc_and_time(store: LocalStore) -> None:
    store.put_task(SERVER, TASK)
    cached = store.get_task(SERVER, "a_scout")
    assert cached is not None
    doc, fetched_at = cached
    assert doc.etag == '"v3-abc"' and doc.revisions[0].replaced_by_name == "Ann"
    assert fetched_at.tzinfo is UTC


def test_the_cache_is_kept_per_server(store: LocalStore) -> None:
    store.put_task(SERVER, TASK)
    assert store.get_task(OTHER, "a_scout") is None
    assert store.get_me(OTHER) is None
    assert store.get_note(OTHER, NOTE.display_path) is None


def test_a_newer_fetch_replaces_the_older_one(store: LocalStore, clock) -> None:
    store.put_task(SERVER, TASK)
    clock.now += 60
    newer = dataclasses.replace(TASK, version=4)
    store.put_task(SERVER, newer)
    doc, fetched_at = store.get_task(SERVER, "a_scout")  # type: ignore[misc]
    assert doc.version == 4
    assert fetched_at == datetime.fromtimestamp(clock.now, UTC)


def test_absent_notes_are_remembered_apart_from_notes(store: LocalStore, clock) -> None:
    path = "org/o_acme/gone.md"
    assert store.note_absent_since(SERVER, path) is None
    store.put_note_absent(SERVER, path)
    assert store.get_note(SERVER, path) is None
    assert store.note_absent_since(SERVER, path) == datetime.fromtimestamp(clock.now, UTC)
    store.put_notes(SERVER, [OrgFile(path, "note", "Back", "again")])
    assert store.note_absent_since(SERVER, path) is None
    assert store.get_note(SERVER, path).value.text == "again"  # type: ignore[union-attr]


def test_clear_cache_forgets_one_server_and_keeps_drafts(store: LocalStore) -> None:
    store.put_task(SERVER, TASK)
    store.put_task(OTHER, TASK)
    store.save_draft(SERVER, "a_scout", "draft", 3)
    store.clear_cache(SERVER)
    assert store.get_task(SERVER, "a_scout") is None
    assert store.get_task(OTHER, "a_scout") is not None
    assert store.get_draft(SERVER, "a_scout") is not None


def test_a_row_of_another_shape_is_a_miss_not_a_crash(store: LocalStore) -> None:
    store.put_task(SERVER, TASK)
    with closing(sqlite3.connect(store.path)) as conn, conn:
        conn.execute("UPDATE cache SET body = ? WHERE kind = 'task'", (b'{"agent": 1}',))
    assert store.get_task(SERVER, "a_scout") is None


@pytest.mark.parametrize(
    "change",
    [
        {"version": "3"},
        {"content": None},
        {"etag": 5},
        {"revisions": [{"version": 2, "content": "older"}]},
        {"revisions": "none"},
    ],
)
def test_a_row_with_a_field_of_the_wrong_type_is_a_miss(
    store: LocalStore, change: dict[str, object]
) -> None:
    """Checked as strictly as the server's answers: a wrong type is not passed on."""
    store.put_task(SERVER, TASK)
    body = orjson.loads(cache_codec.encode(TASK)) | change
    with closing(sqlite3.connect(store.path)) as conn, conn:
        conn.execute("UPDATE cache SET body = ? WHERE kind = 'task'", (orjson.dumps(body),))
    assert store.get_task(SERVER, "a_scout") is None


def test_a_broken_embed_keeps_its_file_in_the_cache(store: LocalStore) -> None:
    """The cache names the field ``in_path``, the wire ``in``: both read the same model."""
    status = [AgentEmbedStatus("a_scout", (BrokenEmbed("org/o_acme/gone.md", 2, "x/task.md"),))]
    store.put_embed_status(SERVER, "guild_ops", status)
    cached = store.get_embed_status(SERVER, "guild_ops")
    assert cached is not None and cached.value == status
    wire = {"path": "org/o_acme/gone.md", "hop": 2, "in": "x/task.md"}
    assert embed_status_from({"agents": [{"id": "a_scout", "broken_embeds": [wire]}]}) == status
