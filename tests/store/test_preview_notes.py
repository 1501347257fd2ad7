"""The preview's notes: byte for byte what the real server's run gets, and honest offline."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.client import TaskdeskClient
from app.core.expander import task_display_path
from app.core.models import Reader
from app.render.preview_notes import UNSUPPORTED_MESSAGE, PreviewExpansion, PreviewNotes
from app.store import LocalStore, server_key

AGENTS = ["a_scout", "a_writer", "a_analyst", "a_helper"]
STYLE_GUIDE = "org/o_acme/guilds/guild_ops/style-guide.md"
ESCALATION = "org/o_acme/escalation.md"


class Ticker:
    """A monotonic clock the test moves by hand (revalidation without sleeping)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def ann(live_server) -> Iterator[TaskdeskClient]:
    with TaskdeskClient(
        live_server.url, live_server.token("ann"), connect_timeout=1.0, read_timeout=2.0
    ) as client:
        yield client


def _preview(notes: PreviewNotes, client: TaskdeskClient, agent_id: str) -> PreviewExpansion:
    guild = {a.id: a.guild_id for a in client.agents()}[agent_id]
    return _preview_text(notes, client.get_task(agent_id).content, agent_id, guild)


def _preview_text(notes: PreviewNotes, text: str, agent_id: str, guild: str) -> PreviewExpansion:
    return notes.expand_for_preview(
        text,
        org_id="o_acme",
        reader=Reader(agent_id, guild),
        task_path=task_display_path("o_acme", agent_id),
    )


@pytest.mark.parametrize("agent_id", AGENTS)
def test_preview_is_the_runs_task_byte_for_byte(ann: TaskdeskClient, live_server, agent_id) -> None:
    notes = PreviewNotes(ann, None, server_key(live_server.url))
    preview = _preview(notes, ann, agent_id)
    run = ann.create_run(agent_id)
    assert preview.text == run.task_text
    assert (preview.from_cache, preview.unknown, preview.unsupported) == (False, (), False)
    assert preview.notice() is None
    ran = [(n.display_path, n.version, n.content_hash) for n in run.task_source.notes]
    assert [(n.display_path, n.version, n.content_hash) for n in preview.expansion.notes] == ran


def test_broken_embeds_match_the_servers_embed_status(ann: TaskdeskClient, live_server) -> None:
    notes = PreviewNotes(ann, None, server_key(live_server.url))
    preview = _preview(notes, ann, "a_scout")
    [scout] = [a for a in ann.embed_status("guild_ops") if a.id == "a_scout"]
    assert preview.expansion.broken == scout.broken_embeds
    # A missing note really is missing: a marker, not "couldn't check".
    assert "org/o_acme/guilds/guild_ops/retired-playbook.md" in {
        b.path for b in preview.expansion.broken
    }


def test_hop_two_notes_are_fetched_too(ann: TaskdeskClient, live_server) -> None:
    notes = PreviewNotes(ann, None, server_key(live_server.url))
    preview = _preview_text(notes, f"![[{STYLE_GUIDE}]]", "a_writer", "guild_ops")
    assert "Escalate outages to the on-call operator" in preview.text  # inlined at hop 2


def test_a_note_is_not_refetched_while_fresh(ann: TaskdeskClient, live_server) -> None:
    ticker = Ticker()
    notes = PreviewNotes(ann, None, server_key(live_server.url), clock=ticker)
    task = f"![[{ESCALATION}]]"
    assert "within 5 minutes" in _preview_text(notes, task, "a_writer", "guild_ops").text
    live_server.put_note(
        ESCALATION,
        title="Escalation",
        text="Escalate within 1 minute.\n",
        access=[{"principal": "org", "role": "read"}],
    )
    ticker.now += 29
    assert "within 5 minutes" in _preview_text(notes, task, "a_writer", "guild_ops").text
    ticker.now += 2
    assert "within 1 minute." in _preview_text(notes, task, "a_writer", "guild_ops").text


def test_offline_serves_the_cache_and_says_when(
    ann: TaskdeskClient, live_server, tmp_path: Path
) -> None:
    key = server_key(live_server.url)
    with LocalStore(tmp_path / "store.sqlite3") as store:
        online = _preview(PreviewNotes(ann, store, key), ann, "a_scout")
        task = ann.get_task("a_scout").content
    live_server.stop()

    # A new start: nothing in memory, the server gone, only the store's offline copy.
    with (
        LocalStore(tmp_path / "store.sqlite3") as store,
        TaskdeskClient(
            live_server.url, live_server.token("ann"), connect_timeout=1.0, read_timeout=2.0
        ) as gone,
    ):
        offline = _preview_text(PreviewNotes(gone, store, key), task, "a_scout", "guild_ops")
    assert offline.text == online.text
    assert offline.from_cache is True and offline.cached_at is not None
    assert offline.unknown == () and offline.unsupported is False
    assert offline.problem is not None and "cannot be reached" in offline.problem
    assert "as they were at" in (offline.notice() or "")


def test_offline_without_a_cache_says_it_could_not_check(
    ann: TaskdeskClient, live_server, tmp_path: Path
) -> None:
    task = ann.get_task("a_scout").content
    live_server.stop()
    with LocalStore(tmp_path / "store.sqlite3") as store:
        notes = PreviewNotes(ann, store, server_key(live_server.url))
        preview = _preview_text(notes, task, "a_scout", "guild_ops")
    assert STYLE_GUIDE in preview.unknown
    assert "guild/style-guide.md" not in preview.unknown  # not a display path: surely a marker
    assert preview.from_cache is False and preview.unsupported is False
    notice = preview.notice() or ""
    assert "could not be checked" in notice and STYLE_GUIDE in notice
    assert preview.problem and "cannot be reached" in preview.problem
    assert notice.startswith(preview.problem)


def test_offline_after_a_preview_keeps_the_notes_in_memory(
    ann: TaskdeskClient, live_server
) -> None:
    ticker = Ticker()
    notes = PreviewNotes(ann, None, server_key(live_server.url), clock=ticker)
    online = _preview(notes, ann, "a_scout")
    task = ann.get_task("a_scout").content
    live_server.stop()
    ticker.now += 60
    offline = _preview_text(notes, task, "a_scout", "guild_ops")
    assert offline.text == online.text
    assert offline.from_cache is True and offline.unknown == ()


@pytest.mark.parametrize("status", [405, 404])
def test_a_server_without_the_note_endpoint(ann: TaskdeskClient, live_server, status: int) -> None:
    live_server.hook("fail", status=status, count=1000, path="/api/notes/", error="Not Found")
    notes = PreviewNotes(ann, None, server_key(live_server.url))
    preview = _preview_text(notes, f"Rules: ![[{STYLE_GUIDE}]]", "a_writer", "guild_ops")
    assert preview.unsupported is True
    assert preview.unknown == (STYLE_GUIDE,)
    assert preview.notice() == UNSUPPORTED_MESSAGE


def test_missing_notes_on_a_full_server_are_not_unsupported(
    ann: TaskdeskClient, live_server
) -> None:
    notes = PreviewNotes(ann, None, server_key(live_server.url))
    preview = _preview_text(notes, "![[org/o_acme/nothing-here.md]]", "a_writer", "guild_ops")
    assert preview.unsupported is False and preview.unknown == ()
    assert preview.text == (
        '<unreachable path="org/o_acme/nothing-here.md" message="This file is not reachable." />'
    )


def test_a_closed_store_does_not_stop_the_preview(
    ann: TaskdeskClient, live_server, tmp_path: Path
) -> None:
    store = LocalStore(tmp_path / "store.sqlite3")
    store.close()
    notes = PreviewNotes(ann, store, server_key(live_server.url))
    preview = _preview(notes, ann, "a_writer")
    assert preview.text == ann.create_run("a_writer").task_text


def test_the_offline_copy_is_checked_with_a_reachable_server(
    ann: TaskdeskClient, live_server, tmp_path: Path
) -> None:
    key = server_key(live_server.url)
    task = f"![[{ESCALATION}]]"
    with LocalStore(tmp_path / "store.sqlite3") as store:
        _preview_text(PreviewNotes(ann, store, key), task, "a_writer", "guild_ops")
        live_server.put_note(
            ESCALATION,
            title="Escalation",
            text="Escalate within 2 minutes.\n",
            access=[{"principal": "org", "role": "read"}],
        )
        # A new start with the server up: the copy on disk is not trusted without asking.
        fresh = _preview_text(PreviewNotes(ann, store, key), task, "a_writer", "guild_ops")
        assert "within 2 minutes." in fresh.text
        assert fresh.from_cache is False and fresh.notice() is None
        cached = store.get_note(key, ESCALATION)
        assert cached is not None and cached.value.text == "Escalate within 2 minutes.\n"
