"""Earlier runs as history: what they inlined tells a deleted note from one that never was."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.core.marker_reasons import EarlierFile, history_from_json, history_of
from tests.live_server import WORKSPACE_BASIC
from tests.references.cli_run import taskdesk

TASK = "org/o_acme/agents/a_scout/task.md"
SOURCE: dict[str, Any] = {
    "version": 3,
    "hash": "0" * 64,
    "display_path": TASK,
    "has_embeds": True,
    "embeds": [],
    "notes": [
        {"display_path": "org/o_acme/a.md", "version": 2, "content_hash": "1", "kind": "note"}
    ],
    "collections": ["org/o_acme/customers"],
}
FOUND = (
    EarlierFile("org/o_acme/a.md", 2, "run_1", TASK),
    EarlierFile("org/o_acme/customers", None, "run_1", TASK),
)


def test_a_run_a_task_source_and_a_list_of_them_all_read() -> None:
    assert history_from_json({"id": "run_1", "task_source": SOURCE}) == FOUND
    assert history_from_json([{"id": "run_1", "task_source": SOURCE}, SOURCE]) == (
        *FOUND,
        *(EarlierFile(e.display_path, e.version, "", TASK) for e in FOUND),
    )


def test_expand_json_output_reads_as_history() -> None:
    done = taskdesk("expand", "--workspace", WORKSPACE_BASIC, "--agent", "a_writer", "--json")
    assert done.returncode == 0, done.stderr
    history = history_from_json(json.loads(done.stdout))
    writer = "org/o_acme/agents/a_writer/task.md"
    assert [(e.display_path, e.version, e.task_path) for e in history] == [
        ("org/o_acme/guilds/guild_ops/style-guide.md", 1, writer),
        ("org/o_acme/escalation.md", 1, writer),
    ]


@pytest.mark.parametrize("data", [[1], {"notes": []}, {"task_source": "x"}, "run_1", [SOURCE, {}]])
def test_anything_else_is_refused_by_entry(data: object) -> None:
    with pytest.raises(ValueError, match=r"entry \d+ is not a run or a task_source"):
        history_from_json(data)


def test_only_the_agents_own_runs_count() -> None:
    other = EarlierFile("org/o_acme/b.md", 1, "run_2", "org/o_acme/agents/a_other/task.md")
    unknown = EarlierFile("org/o_acme/c.md", 1, "", "")
    assert history_of([*FOUND, other, unknown], TASK) == (*FOUND, unknown)
