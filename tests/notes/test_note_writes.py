"""Notes made, saved, refused and weighed over real HTTP, through the app's own client."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.client import (
    FileExists,
    InvalidRequest,
    NotFound,
    NotWritable,
    TaskdeskClient,
    TooLarge,
    VersionConflict,
)
from app.core.expander import Expansion, expand_embeds, task_display_path
from app.core.limits import EMBED_BUDGET_BYTES
from app.core.models import AccessEntry, OrgFile, Reader
from tests.live_server import LiveServer, ServerFactory

STYLE = "org/o_acme/guilds/guild_ops/style-guide.md"
NEW = "org/o_acme/guilds/guild_ops/new-rules.md"
READ_OPS = (AccessEntry("guild:guild_ops", "read"),)
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def ann(live_server: LiveServer) -> Iterator[TaskdeskClient]:
    with TaskdeskClient(live_server.url, live_server.token("ann")) as client:
        yield client


def _client(server: LiveServer, who: str) -> TaskdeskClient:
    return TaskdeskClient(server.url, server.token(who))


def test_a_note_is_made_at_version_1_and_saved_with_its_earlier_texts(
    ann: TaskdeskClient,
) -> None:
    made = ann.create_note(NEW, "New rules", "First.\n", READ_OPS)
    assert (made.version, made.text, made.file.title, made.revisions) == (
        1,
        "First.\n",
        "New rules",
        (),
    )
    saved = ann.put_note(NEW, "Second.\n", 1)
    assert saved.version == 2
    assert [(r.version, r.text, r.replaced_by_name) for r in saved.revisions] == [
        (1, "First.\n", "Ann")
    ]
    same = ann.put_note(NEW, "Second.\n", 2)  # the same text and title: nothing changes
    assert (same.version, len(same.revisions)) == (2, 1)
    retitled = ann.put_note(NEW, "Second.\n", 2, title="Renamed")
    assert (retitled.version, retitled.file.title) == (3, "Renamed")
    # A new title alone keeps no earlier text: version 2's text is the live one.
    assert [r.version for r in ann.note_doc(NEW).revisions] == [1]


def test_only_the_newest_50_earlier_texts_are_kept(ann: TaskdeskClient) -> None:
    ann.create_note(NEW, "N", "v1", READ_OPS)
    for version in range(1, 56):
        ann.put_note(NEW, f"v{version + 1}", version)
    kept = ann.note_doc(NEW).revisions
    assert [r.version for r in kept] == list(range(55, 5, -1))


def test_creating_a_note_refuses_what_the_contract_refuses(live_server: LiveServer) -> None:
    with _client(live_server, "ann") as ann, _client(live_server, "mia") as mia:
        with pytest.raises(NotWritable):
            mia.create_note(NEW, "N", "x", READ_OPS)
        for bad in ("org/o_other/x.md", "org/o_acme/x.txt", "org/o_acme/agents/a_scout/task.md"):
            with pytest.raises(InvalidRequest, match="must be inside the org"):
                ann.create_note(bad, "N", "x", READ_OPS)
        with pytest.raises(FileExists):
            ann.create_note(STYLE, "N", "x", READ_OPS)
        with pytest.raises(InvalidRequest, match="access list"):
            ann.create_note(NEW, "N", "x", (AccessEntry("team:x", "read"),))
        with pytest.raises(InvalidRequest, match="access list"):
            ann.create_note(NEW, "N", "x", (AccessEntry("org", "comment"),))
        with pytest.raises(TooLarge):
            ann.create_note(NEW, "N", "x" * 262_145, READ_OPS)
        with pytest.raises(NotFound):  # nothing was made by any of those
            ann.note(NEW)


def test_saving_a_note_is_for_operators_and_writers_at_the_live_version(
    live_server: LiveServer,
) -> None:
    writable = (AccessEntry("user:u_mia", "write"),)
    readable = (AccessEntry("user:u_mia", "read"),)
    with _client(live_server, "ann") as ann, _client(live_server, "mia") as mia:
        ann.create_note(NEW, "N", "one", writable)
        ann.create_note("org/o_acme/read-only.md", "R", "one", readable)
        assert mia.put_note(NEW, "two", 1).version == 2  # her access list gives write
        with pytest.raises(NotWritable, match="read only"):
            mia.put_note("org/o_acme/read-only.md", "two", 1)
        with pytest.raises(NotFound):  # a note she can't read is missing, to her
            mia.put_note(STYLE, "two", 1)
        with pytest.raises(VersionConflict) as conflict:
            ann.put_note(NEW, "three", 1)
        assert conflict.value.live_version == 2
        with pytest.raises(InvalidRequest, match="not a note"):
            ann.put_note("org/o_acme/guilds/guild_ops/customers", "x", 1)


def _expansion(
    client: TaskdeskClient, agent_id: str, guild_id: str, override: OrgFile | None
) -> Expansion:
    """The agent's run as this test works it out: its Task and the notes, read over HTTP."""
    seen: dict[str, OrgFile | None] = {}

    def lookup(path: str) -> OrgFile | None:
        if override is not None and path == override.display_path:
            return override
        if path not in seen:
            try:
                seen[path] = client.note(path)
            except NotFound:
                seen[path] = None
        return seen[path]

    task_path = task_display_path("o_acme", agent_id)
    return expand_embeds(
        client.get_task(agent_id).content,
        org_id="o_acme",
        reader=Reader(agent_id, guild_id),
        lookup=lookup,
        task_path=task_path,
    )


def test_impact_numbers_are_the_expanders_on_the_edited_text(ann: TaskdeskClient) -> None:
    live = ann.note(STYLE)
    edited_text = live.text + "![[org/o_acme/nowhere.md]]\n" + "x" * EMBED_BUDGET_BYTES
    rows = ann.note_impact(STYLE, edited_text)
    assert [r.agent_id for r in rows] == ["a_scout", "a_writer"]
    edited = OrgFile(STYLE, "note", live.title, edited_text, live.version, live.access)
    for row in rows:
        before = _expansion(ann, row.agent_id, "guild_ops", None)
        after = _expansion(ann, row.agent_id, "guild_ops", edited)
        assert (row.bytes_before, row.bytes_after) == (before.embedded_bytes, after.embedded_bytes)
        assert (row.over_before, row.over_after) == (before.over_budget, after.over_budget)
        assert (row.broken_before, row.broken_after) == (before.broken, after.broken)
        assert row.prompt_changes is (before.text != after.text) is True
        assert row.goes_over and row.gains_marker
    assert ann.note(STYLE).text == live.text  # nothing was saved
    unchanged = ann.note_impact(STYLE, live.text or "")
    assert not any(r.prompt_changes or r.goes_over or r.gains_marker for r in unchanged)


def test_used_by_and_impact_are_for_operators_only(live_server: LiveServer) -> None:
    with _client(live_server, "mia") as mia, _client(live_server, "scout") as scout:
        for client in (mia, scout):
            with pytest.raises(NotFound):
                client.used_by(STYLE)
            with pytest.raises(NotFound):
                client.note_impact(STYLE, "x")


def test_a_note_save_logs_the_agents_whose_expanded_task_it_changes(
    live_server: LiveServer, ann: TaskdeskClient
) -> None:
    import sqlite3

    live = ann.note(STYLE)
    ann.put_note(STYLE, (live.text or "") + "One more rule.\n", live.version)
    ann.put_note(STYLE, (live.text or "") + "One more rule.\n\n\n", live.version + 1)  # trailing
    conn = sqlite3.connect(f"file:{live_server.db_path}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "SELECT kind, agent_ids FROM org_events ORDER BY id DESC LIMIT 2"
        ).fetchall()
    finally:
        conn.close()
    # Trailing line breaks are not inlined: the second save changed nobody's expanded Task.
    assert [(kind, json.loads(ids)) for kind, ids in rows] == [
        ("note_saved", []),
        ("note_saved", ["a_scout", "a_writer"]),
    ]


def test_the_used_by_command_prints_the_servers_answer(live_server: LiveServer) -> None:
    env = {**os.environ, "TASKDESK_TOKEN": live_server.token("ann")}
    done = subprocess.run(
        [sys.executable, "-m", "app", "used-by", "--server", live_server.url, STYLE, "--json"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    with _client(live_server, "ann") as ann:
        assert json.loads(done.stdout) == ann.used_by(STYLE).to_json()
    workspace = str(live_server.workspace_path)
    from_file = subprocess.run(
        [sys.executable, "-m", "app", "used-by", "--workspace", workspace, STYLE],
        cwd=REPO, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert from_file.returncode == 0, from_file.stderr
    assert from_file.stdout.splitlines()[0] == (
        "Used by 2 agents (2 at hop 1, 0 at hop 2; 0 get the marker)"
    )
    missing = subprocess.run(
        [sys.executable, "-m", "app", "used-by", "--workspace", workspace, "org/o_acme/missing.md"],
        cwd=REPO, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert missing.returncode == 2
    assert missing.stderr.strip() == "taskdesk: no note 'org/o_acme/missing.md' in the workspace"


def test_the_index_is_built_for_a_database_made_before_it(
    server_factory: ServerFactory, tmp_path: Path
) -> None:
    import sqlite3

    db = tmp_path / "old.sqlite3"
    first = server_factory(db_path=db)
    with _client(first, "ann") as ann:
        expected = ann.used_by(STYLE).to_json()
    first.handle.stop()
    conn = sqlite3.connect(db)
    conn.execute("DELETE FROM note_uses")
    conn.execute("DELETE FROM meta WHERE key = 'note_uses_built'")
    conn.commit()
    conn.close()
    again = server_factory(db_path=db)
    with _client(again, "ann") as ann:
        assert ann.used_by(STYLE).to_json() == expected != []
