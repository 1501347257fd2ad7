"""`taskdesk references --server` and `check --server` against the real reference server.

Each golden reason case is served by a real server on loopback and read back through the
API (task.md, /api/me, /api/org/agents, /api/notes/…): the answer must be the golden list,
so the reasons hold end to end. A note deleted after a run shows as deleted with that run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import requests

from app.server import start_server
from tests.live_server import WORKSPACE_BASIC, LiveServer, ServerFactory
from tests.references.cli_run import one_clear_line, taskdesk
from tests.references.golden_cases import CASES, GOLDEN, expected

TIMEOUT = 15.0
# Served as stored, except the deleted case: its history is runs that only a file holds.
SERVED = [p for p in CASES if p.name != "reason_deleted"]


@pytest.mark.parametrize("folder", SERVED, ids=[p.name for p in SERVED])
def test_each_reason_reads_the_same_from_a_live_server(
    server_factory: ServerFactory, folder: str
) -> None:
    server = server_factory(GOLDEN / folder / "workspace.json")
    done = taskdesk(
        "references", "--server", server.url, "--agent", "a_scout", "--json", token="ann-secret"
    )
    assert (done.returncode, done.stderr) == (0, "")
    served = json.loads(done.stdout)
    golden = expected(GOLDEN / folder)
    # The API gives a note without a title its file name as title (API.md); all else is equal.
    for row in golden:
        if row["outcome"] == "inlined" and not row["title"]:
            row["title"] = row["path"].rsplit("/", 1)[-1].removesuffix(".md")
    assert served == golden


def test_a_note_deleted_after_a_run_shows_as_deleted_with_that_run(
    server_factory: ServerFactory,
) -> None:
    server = server_factory(GOLDEN / "reason_deleted" / "workspace.json")
    server.put_note(
        "org/o_acme/checklist.md",
        title="Checklist",
        text="- [ ] Queue empty?",
        access=[{"principal": "org", "role": "read"}],
    )
    run = call(server, "POST", "/api/agents/a_scout/runs").json()
    assert "org/o_acme/checklist.md" in [n["display_path"] for n in run["task_source"]["notes"]]
    # Only a Task's own embeds keep a note from deletion; this one a note embeds.
    assert call(server, "DELETE", "/api/notes/org/o_acme/checklist.md").status_code == 204

    args = ["references", "--server", server.url, "--agent", "a_scout", "--json"]
    with_run = json.loads(taskdesk(*args, "--run", run["id"], token="ann-secret").stdout)
    rows = {row["path"]: row for row in with_run}
    checklist = rows["org/o_acme/checklist.md"]
    assert (checklist["hop"], checklist["in"], checklist["reason"]) == (
        2,
        "org/o_acme/guide.md",
        "deleted",
    )
    assert checklist["message"] == (
        f"org/o_acme/checklist.md was deleted: run {run['id']} of this agent inlined it (v1)."
    )
    assert rows["org/o_acme/never-was.md"]["reason"] == "missing"
    without = {row["path"]: row for row in json.loads(taskdesk(*args, token="ann-secret").stdout)}
    assert without["org/o_acme/checklist.md"]["reason"] == "missing"


def test_check_against_a_server_exits_1_then_0_once_the_task_is_fixed(
    live_server: LiveServer,
) -> None:
    done = taskdesk("check", "--server", live_server.url, token="ann-secret")
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[0] == "a_scout (Scout): 5 unreachable embeds"
    fixed = call(
        live_server,
        "PUT",
        "/api/agents/a_scout/files/task.md",
        json={"content": "# Scout\n\n![[org/o_acme/guilds/guild_ops/style-guide.md]]\n"},
    )
    assert fixed.status_code == 200
    again = taskdesk("check", "--server", live_server.url, token="ann-secret")
    assert (again.returncode, again.stdout, again.stderr) == (0, "all 4 agents are clean\n", "")


def test_a_member_token_is_warned_that_unreadable_files_look_missing(
    live_server: LiveServer,
) -> None:
    done = taskdesk(
        "references", "--server", live_server.url, "--agent", "a_scout", token="mia-secret"
    )
    assert done.returncode == 0
    assert done.stderr == (
        "taskdesk: signed in as member Mia: files this token may not read show as missing\n"
    )


def test_server_faults_are_one_line_with_exit_2(
    live_server: LiveServer, server_factory: ServerFactory
) -> None:
    url = live_server.url
    refs = ["references", "--server", url, "--agent"]
    assert one_clear_line(taskdesk(*refs, "a_nobody", token="ann-secret")) == (
        f"taskdesk: no agent 'a_nobody' on {url}"
    )
    assert one_clear_line(taskdesk(*refs, "a_scout", "--run", "run_x", token="ann-secret")) == (
        f"taskdesk: no run 'run_x' on {url}"
    )
    bad_token = one_clear_line(taskdesk(*refs, "a_scout", token="wrong"))
    assert bad_token.startswith(f"taskdesk: {url} did not accept the token in TASKDESK_TOKEN")
    live_server.hook("fail", status=503, count=1000, path="/api/notes/")
    failing = one_clear_line(taskdesk(*refs, "a_scout", token="ann-secret"))
    assert failing.startswith(f"taskdesk: {url}: reading org/o_acme/")

    stopped = server_factory(test_hooks=False)
    stopped.stop()
    gone = one_clear_line(taskdesk("check", "--server", stopped.url, token="ann-secret"))
    assert gone.startswith(f"taskdesk: {stopped.url}: The Taskdesk server at ")


def test_a_spec_only_server_is_told_to_lack_what_references_need(tmp_path: Path) -> None:
    server = start_server(WORKSPACE_BASIC, tmp_path / "spec.sqlite3", extensions=False)
    try:
        done = taskdesk("check", "--server", server.url, token="ann-secret")
    finally:
        server.stop()
    assert one_clear_line(done) == (
        f"taskdesk: {server.url} does not say who the token belongs to (/api/me): references "
        "need the reference server's extensions (see docs/REFERENCES.md)"
    )


def call(server: LiveServer, method: str, path: str, **kwargs: Any) -> requests.Response:
    return requests.request(
        method, server.url + path, headers=server.auth("ann"), timeout=TIMEOUT, **kwargs
    )
