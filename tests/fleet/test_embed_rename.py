"""Moving a note as a change set: every embed of it rewritten, code and plain names left."""

from __future__ import annotations

import pytest
import requests

from app.client import TaskdeskClient
from app.core.change_plan import BadEditError
from app.core.embed_rename import fenced_embeds, move_embeds_edit
from app.core.fleet_models import PlannedTaskChange
from tests.fleet.fleet_data import FLEET_SIZE, ORG, RULES
from tests.live_server import LiveServer

MOVED = f"{ORG}/guidelines/rules.md"


def test_only_real_embeds_outside_code_are_rewritten() -> None:
    text = (
        f"Use ![[{RULES}]] and ![[ {RULES} ]].\n"
        f"Plain [[rules]] and {RULES} stay.\n\n"
        f"```\n![[{RULES}]]\n```\n\n"
        f"    ![[{RULES}]] indented code\n"
    )
    moved = move_embeds_edit(RULES, MOVED)(text)
    assert moved.splitlines()[0] == f"Use ![[{MOVED}]] and ![[ {MOVED} ]]."
    assert moved.splitlines()[1:] == text.splitlines()[1:]
    assert fenced_embeds(text, RULES) == 2
    with pytest.raises(BadEditError):
        move_embeds_edit(RULES, RULES)


def test_a_moved_note_leaves_every_expanded_task_equal_but_for_its_path(
    fleet: LiveServer, ann: TaskdeskClient
) -> None:
    def prompts() -> dict[str, str]:
        found = {}
        for n in range(FLEET_SIZE):
            agent = f"a_{n:03d}"
            run = ann.create_run(agent)
            found[agent] = run.task_text
        return found

    before = prompts()
    # The note at its new place (the notes' own move, POST /api/notes, is another feature's).
    note = ann.note(RULES)
    fleet.put_note(
        MOVED, title=note.title, text=note.text, access=[{"principal": "org", "role": "read"}]
    )
    edit = move_embeds_edit(RULES, MOVED)
    changes = [
        PlannedTaskChange(t.agent_id, t.version, edit(t.content))
        for t in ann.live_tasks([f"a_{n:03d}" for n in range(FLEET_SIZE)])
    ]
    made = ann.create_change_set(f"Move {RULES} to {MOVED}", changes)
    assert len(made.versions) == FLEET_SIZE
    after = prompts()
    for agent, text in before.items():
        assert MOVED in after[agent] and RULES not in after[agent]
        assert after[agent].replace(MOVED, RULES) == text, agent
    deleted = requests.delete(
        f"{fleet.url}/api/notes/{RULES}", headers=fleet.auth("ann"), timeout=10
    )
    assert deleted.status_code == 204  # no live Task embeds the old path any more
