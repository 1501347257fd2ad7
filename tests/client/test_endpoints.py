"""Every client call against the real reference server, and every status it maps."""

from __future__ import annotations

import pytest
import requests

from app.client import (
    BudgetExceeded,
    InvalidRequest,
    NoteEmbedded,
    NotFound,
    NotWritable,
    RunInfo,
    TaskdeskClient,
    TooLarge,
    Unauthorized,
    VersionConflict,
)
from app.client.status_errors import error_for_status
from app.core.limits import TASK_MAX_BYTES
from app.core.models import AgentRow, EmbeddableNote, Guild, Me, TaskDoc
from tests.client.conftest import BOB, MIA
from tests.live_server import LiveServer

SCOUT_TASK_PATH = "org/o_acme/agents/a_scout/task.md"


def test_me_agents_guilds(client: TaskdeskClient) -> None:
    assert client.me() == Me("u_ann", "Ann", "operator", "o_acme")
    agents = client.agents()
    assert all(isinstance(a, AgentRow) for a in agents)
    assert {a.id for a in agents} == {"a_scout", "a_writer", "a_analyst", "a_helper"}
    scout = next(a for a in agents if a.id == "a_scout")
    assert (scout.guild_id, scout.task_version) == ("guild_ops", 3)
    assert set(client.guilds()) == {
        Guild("guild_ops", "Operations"),
        Guild("guild_research", "Research"),
    }


def test_get_task_reads_content_revisions_and_etag(client: TaskdeskClient) -> None:
    doc = client.get_task("a_scout")
    assert isinstance(doc, TaskDoc)
    assert (doc.agent_id, doc.path, doc.display_path) == ("a_scout", "task.md", SCOUT_TASK_PATH)
    assert doc.version == 3
    assert doc.content.startswith("# Scout")
    assert [r.version for r in doc.revisions] == [2, 1]  # newest first
    assert doc.revisions[0].replaced_by_name == "Bob"
    assert doc.etag


def test_put_task_saves_and_counts_versions(client: TaskdeskClient) -> None:
    before = client.get_task("a_writer")
    saved = client.put_task("a_writer", before.content + "\nOne more rule.\n", before.version)
    assert saved.version == before.version + 1
    assert saved.content.endswith("One more rule.\n")
    assert saved.revisions[0].content == before.content
    assert client.put_task("a_writer", saved.content, saved.version).version == saved.version
    assert (
        client.put_task("a_writer", "Without a version check.", None).version == saved.version + 1
    )


def test_put_task_conflict_carries_the_live_version(
    client: TaskdeskClient, server: LiveServer
) -> None:
    stale = client.get_task("a_scout")
    with TaskdeskClient(server.url, BOB) as bob:
        bob.put_task("a_scout", "Bob's rules.", stale.version)
    with pytest.raises(VersionConflict) as caught:
        client.put_task("a_scout", "Ann's rules.", stale.version)
    assert caught.value.live_version == stale.version + 1
    assert "Someone else saved" in caught.value.message
    assert client.get_task("a_scout").content == "Bob's rules."


def test_put_task_by_a_member_is_not_writable(server: LiveServer) -> None:
    with TaskdeskClient(server.url, MIA) as mia, pytest.raises(NotWritable) as caught:
        mia.put_task("a_scout", "Mia's rules.", None)
    assert "only an operator" in caught.value.message


def test_put_task_over_256_kb_is_too_large(client: TaskdeskClient) -> None:
    # 131,073 two-byte characters: under the limit in characters, over it in bytes.
    text = "é" * (TASK_MAX_BYTES // 2 + 1)
    with pytest.raises(TooLarge) as caught:
        client.put_task("a_writer", text, None)
    assert "256 KB" in caught.value.message
    client.put_task("a_writer", "é" * (TASK_MAX_BYTES // 2), None)  # exactly the limit


def test_put_task_with_a_bad_expected_version_is_invalid(server: LiveServer) -> None:
    # The typed call cannot send a bad version, so send one as a hand-made request would.
    answer = requests.put(
        f"{server.url}/api/agents/a_writer/files/task.md",
        json={"content": "x", "expected_version": "3"},
        headers={"Authorization": "Bearer ann-secret"},
        timeout=5,
    )
    error = error_for_status(answer.status_code, answer.headers, answer.content, server="s")
    assert isinstance(error, InvalidRequest)
    assert "expected_version must be an integer" in error.message


def test_delete_task_is_refused(client: TaskdeskClient) -> None:
    with pytest.raises(NotWritable) as caught:
        client.delete_task("a_scout")
    assert "cannot be deleted" in caught.value.message


def test_unknown_token_is_unauthorized(server: LiveServer) -> None:
    with TaskdeskClient(server.url, "not-a-token") as stranger:
        with pytest.raises(Unauthorized):
            stranger.me()
        with pytest.raises(Unauthorized):
            stranger.get_task("a_scout")


def test_unknown_items_are_not_found(client: TaskdeskClient) -> None:
    with pytest.raises(NotFound):
        client.get_task("a_nobody")
    with pytest.raises(NotFound):
        client.put_task("a_nobody", "text", None)
    with pytest.raises(NotFound):
        client.note("org/o_acme/no-such-note.md")
    with pytest.raises(NotFound):
        client.get_run("run_missing")


def test_odd_ids_stay_in_their_path_segment(client: TaskdeskClient) -> None:
    # An id with a slash or "?" must not reach another route or a query string.
    with pytest.raises(NotFound):
        client.get_task("a_scout/files/task.md?x=1")
    with pytest.raises(InvalidRequest):
        client.note("org/o_acme/../o_acme/handbook.md")


def test_embed_status_lists_broken_embeds(client: TaskdeskClient) -> None:
    status = {s.id: s for s in client.embed_status("guild_ops")}
    assert set(status) == {"a_scout", "a_writer"}
    assert status["a_writer"].broken_embeds == ()
    broken = status["a_scout"].broken_embeds
    assert ("org/o_acme/guilds/guild_ops/retired.md", 2) in [(b.path, b.hop) for b in broken]
    assert broken[0].in_path == SCOUT_TASK_PATH


def test_embeddable_notes_follow_the_callers_access(
    client: TaskdeskClient, server: LiveServer
) -> None:
    notes = client.embeddable_notes()
    assert all(isinstance(n, EmbeddableNote) for n in notes)
    customers = next(n for n in notes if n.display_path.endswith("/customers"))
    assert (customers.kind, customers.title, customers.level) == (
        "collection",
        "Customers",
        "guild",
    )
    with TaskdeskClient(server.url, MIA) as mia:
        mia_paths = {n.display_path for n in mia.embeddable_notes()}
    assert "org/o_acme/private/board-minutes.md" in mia_paths
    assert "org/o_acme/guilds/guild_research/methods.md" not in mia_paths


def test_note_and_collection(client: TaskdeskClient) -> None:
    note = client.note("org/o_acme/guilds/guild_ops/style-guide.md")
    assert (note.kind, note.title, note.version) == ("note", "Style guide", 1)
    assert note.text is not None and note.text.startswith("Write short sentences.")
    assert note.access[0].principal == "guild:guild_ops"
    collection = client.note("org/o_acme/guilds/guild_ops/customers")
    assert (collection.kind, collection.title, collection.text) == (
        "collection",
        "Customers",
        None,
    )


def test_delete_note(client: TaskdeskClient) -> None:
    with pytest.raises(NoteEmbedded) as caught:
        client.delete_note("org/o_acme/guilds/guild_ops/style-guide.md")
    assert caught.value.agent_ids == ("a_scout", "a_writer")
    assert "a_scout, a_writer" in caught.value.message
    client.delete_note("org/o_acme/escalation.md")  # embedded by a note only, not by a Task
    with pytest.raises(NotFound):
        client.note("org/o_acme/escalation.md")


def test_runs_keep_their_task(client: TaskdeskClient) -> None:
    run = client.create_run("a_writer")
    assert isinstance(run, RunInfo)
    assert run.task_source.version == 1
    assert run.task_source.has_embeds
    assert run.task_source.notes[0].display_path == "org/o_acme/guilds/guild_ops/style-guide.md"
    assert '<style-guide path="org/o_acme/guilds/guild_ops/style-guide.md"' in run.task_text
    client.put_task("a_writer", "Changed after the run.", None)
    again = client.get_run(run.id)
    assert again == run


def test_run_over_the_embed_budget(client: TaskdeskClient, server: LiveServer) -> None:
    server.put_note(
        "org/o_acme/big.md",
        kind="note",
        title="Big",
        text="x" * 65_537,
        access=[{"principal": "org", "role": "read"}],
    )
    client.put_task("a_writer", "![[org/o_acme/big.md]]", None)
    with pytest.raises(BudgetExceeded) as caught:
        client.create_run("a_writer")
    assert "64 KB" in caught.value.message


def test_a_bad_server_address_is_a_clear_error() -> None:
    with pytest.raises(InvalidRequest) as caught:
        TaskdeskClient("ftp://example.com", "t")
    assert "not a server address" in caught.value.message


def test_a_task_with_a_broken_character_is_refused_before_sending(client: TaskdeskClient) -> None:
    with pytest.raises(InvalidRequest) as caught:
        client.put_task("a_writer", "Half a pair: \ud800.", None)
    assert "cannot be saved" in caught.value.message
