"""A note save that keeps its embeds writes nothing per agent, and every reader stays exact.

The list of agents such a save changes is kept for the note's next save while the used-by
rows of the note keep their version; a run's embedded bytes are summed from the index when
read. Both are checked here against what the app's own expander makes of the org, on SQLite
and PostgreSQL, across Task saves that make and break the note's uses in between.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import requests

from app.client import NotFound, TaskdeskClient
from app.core.expander import Expansion, expand_embeds, task_display_path
from app.core.models import OrgFile, Reader
from tests.live_server import LiveServer

BOTH_BACKENDS = True
STYLE = "org/o_acme/guilds/guild_ops/style-guide.md"
ESCALATION = "org/o_acme/escalation.md"  # embedded by the style guide: hop 2 of its users
GUILDS = {"a_scout": "guild_ops", "a_writer": "guild_ops", "a_analyst": "guild_research"}


@pytest.fixture
def ann(live_server: LiveServer) -> Iterator[TaskdeskClient]:
    with TaskdeskClient(live_server.url, live_server.token("ann")) as client:
        yield client


def _save_task(server: LiveServer, agent_id: str, text: str) -> None:
    answer = requests.put(
        f"{server.url}/api/agents/{agent_id}/files/task.md",
        json={"content": text},
        headers=server.auth("ann"),
        timeout=15,
    )
    assert answer.status_code == 200, answer.text


def _prose_save(ann: TaskdeskClient, path: str, words: str) -> None:
    """Add words to the note's first line: its embeds stay the same paths in the same order."""
    live = ann.note(path)
    first, _, rest = (live.text or "").partition("\n")
    ann.put_note(path, f"{first} {words}\n{rest}", live.version)


def _logged(server: LiveServer) -> tuple[str, list[str]]:
    kind, ids = server.query("SELECT kind, agent_ids FROM org_events ORDER BY id DESC LIMIT 1")[0]
    return kind, json.loads(ids)


def _expansion(client: TaskdeskClient, agent_id: str) -> Expansion:
    """The agent's run as this test works it out: its Task and the notes, read over HTTP."""

    def lookup(path: str) -> OrgFile | None:
        try:
            return client.note(path)
        except NotFound:
            return None

    return expand_embeds(
        client.get_task(agent_id).content,
        org_id="o_acme",
        reader=Reader(agent_id, GUILDS[agent_id]),
        lookup=lookup,
        task_path=task_display_path("o_acme", agent_id),
    )


def test_the_agents_a_prose_save_changes_follow_the_tasks_saved_in_between(
    live_server: LiveServer, ann: TaskdeskClient
) -> None:
    _save_task(live_server, "a_scout", "")
    _prose_save(ann, STYLE, "Kept.")
    assert _logged(live_server) == ("note_saved", ["a_writer"])
    _prose_save(ann, STYLE, "Kept again.")  # the same kind of edit: the kept list holds
    assert _logged(live_server) == ("note_saved", ["a_writer"])
    _save_task(live_server, "a_scout", f"Scout.\n![[{STYLE}]]\n")  # a new use of the note
    _prose_save(ann, STYLE, "Now two.")
    assert _logged(live_server) == ("note_saved", ["a_scout", "a_writer"])
    _save_task(live_server, "a_writer", "Writer, on its own.\n")  # a use gone
    _prose_save(ann, STYLE, "Now one.")
    assert _logged(live_server) == ("note_saved", ["a_scout"])
    # The hop-2 note: its users are the style guide's (inlined at hop 2, embeds and all).
    _prose_save(ann, ESCALATION, "Page them.")
    assert _logged(live_server) == ("note_saved", ["a_scout"])
    _save_task(live_server, "a_scout", "")
    _prose_save(ann, STYLE, "Nobody.")
    _prose_save(ann, ESCALATION, "Nobody either.")
    assert _logged(live_server) == ("note_saved", [])


def test_impact_weighs_each_run_as_its_notes_are_now_after_prose_saves(
    live_server: LiveServer, ann: TaskdeskClient
) -> None:
    _save_task(live_server, "a_scout", f"![[{STYLE}]]\n![[{ESCALATION}]]\n")  # one repeat
    _prose_save(ann, STYLE, "x" * 5_000)
    _prose_save(ann, ESCALATION, "é" * 3_000)  # two bytes each, inlined at hop 2 for both
    _save_task(live_server, "a_writer", ann.get_task("a_writer").content + "More.\n")
    _prose_save(ann, STYLE, "Shorter again.")
    live = ann.note(STYLE)
    rows = ann.note_impact(STYLE, (live.text or "") + "One more.")
    assert [r.agent_id for r in rows] == ["a_scout", "a_writer"]
    for row in rows:
        now = _expansion(ann, row.agent_id)
        assert row.bytes_before == now.embedded_bytes
        assert row.bytes_after == now.embedded_bytes + len(b"One more.")
        assert row.broken_before == row.broken_after == now.broken
