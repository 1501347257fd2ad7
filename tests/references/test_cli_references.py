"""`taskdesk references` and `taskdesk check`, run as real processes on workspace files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import WORKSPACE_BASIC
from tests.references.cli_run import one_clear_line, taskdesk
from tests.references.golden_cases import CASES, GOLDEN, expected, references_of_case


def case_args(folder: Path) -> list[str | Path]:
    history = folder / "history.json"
    extra: list[str | Path] = ["--history", history] if history.is_file() else []
    return ["--workspace", folder / "workspace.json", "--agent", "a_scout", *extra]


@pytest.mark.parametrize("folder", CASES, ids=[p.name for p in CASES])
def test_json_is_the_golden_list(folder: Path) -> None:
    done = taskdesk("references", *case_args(folder), "--json")
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout) == expected(folder)


def test_text_shows_the_tree_by_hop_with_outcomes_and_reasons() -> None:
    done = taskdesk("references", *case_args(GOLDEN / "outcomes_by_hop"))
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[0] == (
        "Scout (a_scout), Task v1: 6 embeds (+2 left as text), 4 named files · 3 notes inlined "
        "(0.1 KB of 64 KB) · every embed reaches its file"
    )
    assert lines[3] == (
        "hop 1  5:3      inlined    org/o_acme/a.md  "
        "Inlined: 78 bytes of the 64 KB budget, “Note A” (v1)."
    )
    assert lines[4] == (
        "  hop 2  1:4      inlined    org/o_acme/b.md  Inlined: 67 bytes of the 64 KB budget (v1)."
    )
    assert lines[5] == (
        "    hop 3  1:4      text       org/o_acme/c.md  "
        "Past hop 2 embeds stay as written: the run gets ![[org/o_acme/c.md]]."
    )
    assert (
        "repeat     org/o_acme/a.md  Inlined earlier in this run: the run gets its title “Note A”."
        in lines[9]
    )
    assert lines[1].endswith(
        "named      org/o_acme/handbook.md  "
        "Written without ![[…]]: the run gets the path as text, not the note."
    )

    marker = taskdesk("references", *case_args(GOLDEN / "reason_no_access")).stdout.splitlines()
    assert marker[1].startswith("hop 1  1:1      marker     org/o_acme/nobody.md  no_access: ")
    assert marker[1].endswith("Add agent:a_scout read (or guild:guild_ops read, or org read).")


def test_check_lists_each_agent_with_problems_and_exits_1() -> None:
    done = taskdesk("check", "--workspace", WORKSPACE_BASIC)
    assert (done.returncode, done.stderr) == (1, "")
    lines = done.stdout.splitlines()
    assert lines[0] == "a_scout (Scout): 5 unreachable embeds"
    assert lines[2].startswith(
        "  hop 2  org/o_acme/guilds/guild_ops/runbook.md:3  "
        "org/o_acme/guilds/guild_ops/retired.md  missing: "
    )
    assert lines[-1] == "1 of 4 agents have unreachable embeds or are over budget"


def test_check_names_an_agent_over_budget(tmp_path: Path) -> None:
    data = json.loads(WORKSPACE_BASIC.read_text(encoding="utf-8"))
    data["notes"].append(
        {
            "path": "org/o_acme/big.md",
            "text": "x" * 70_000,
            "access": [{"principal": "org", "role": "read"}],
        }
    )
    data["agents"] = [
        {**a, "task": "![[org/o_acme/big.md]]"} if a["id"] == "a_writer" else a
        for a in data["agents"]
        if a["id"] != "a_scout"
    ]
    path = tmp_path / "workspace.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = taskdesk("check", "--workspace", path)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "a_writer (Writer): over budget by 4,464 bytes (70,000 of 65,536)",
        "  cutting org/o_acme/big.md (70,000 bytes) gets it to 0 bytes "
        "(the smallest set of the largest notes)",
        "1 of 3 agents have unreachable embeds or are over budget",
    ]
    body = json.loads(taskdesk("check", "--workspace", path, "--json").stdout)
    assert [(a["agent"], a["clean"], a["over_budget"], a["cut"]) for a in body] == [
        ("a_writer", False, True, ["org/o_acme/big.md"]),
        ("a_analyst", True, False, []),
        ("a_helper", True, False, []),
    ]


def test_check_exits_0_when_every_agent_is_clean(tmp_path: Path) -> None:
    data: dict[str, Any] = json.loads(WORKSPACE_BASIC.read_text(encoding="utf-8"))
    data["agents"] = [a for a in data["agents"] if a["id"] != "a_scout"]
    path = tmp_path / "workspace.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = taskdesk("check", "--workspace", path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "all 3 agents are clean\n", "")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["references", "--workspace", "/no/such/workspace.json", "--agent", "a"],
            "taskdesk: workspace file not found: /no/such/workspace.json",
        ),
        (
            ["references", "--workspace", WORKSPACE_BASIC, "--agent", "a_nobody"],
            "taskdesk: no agent 'a_nobody' in the workspace",
        ),
        (
            ["references", "--workspace", WORKSPACE_BASIC],
            "taskdesk: the following arguments are required: --agent",
        ),
        (["check"], "taskdesk: one of the arguments --workspace --server is required"),
        (
            ["check", "--workspace", WORKSPACE_BASIC, "--server", "http://127.0.0.1:9"],
            "taskdesk: argument --server: not allowed with argument --workspace",
        ),
        (
            ["check", "--server", "http://127.0.0.1:9"],
            "taskdesk: --server needs the server's access token in TASKDESK_TOKEN",
        ),
        (
            ["check", "--workspace", WORKSPACE_BASIC, "--run", "run_1"],
            "taskdesk: --run reads runs from a server: use it with --server",
        ),
        (
            ["check", "--workspace", WORKSPACE_BASIC, "--history", WORKSPACE_BASIC],
            f"taskdesk: history file {WORKSPACE_BASIC}: entry 1 is not a run or a task_source",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line(args: list[str | Path], message: str) -> None:
    assert one_clear_line(taskdesk(*args)) == message


def test_a_history_file_that_is_not_json_is_named(tmp_path: Path) -> None:
    path = tmp_path / "runs.json"
    path.write_text("[{", encoding="utf-8")
    done = taskdesk("check", "--workspace", WORKSPACE_BASIC, "--history", path)
    assert one_clear_line(done) == f"taskdesk: history file {path} is not valid JSON (line 1)"


def test_the_cli_and_the_panel_word_each_outcome_the_same() -> None:
    """One wording (app/core/reference_words.py): every outcome the golden case holds reads
    the same in `taskdesk references` and in the References panel's detail line."""
    from app.cli.references import describe
    from app.core.reference_words import what_the_run_gets
    from app.core.references import OUTCOMES
    from widgets.insight.reference_tree_model import explanation

    found = references_of_case(GOLDEN / "outcomes_by_hop")
    seen = set()
    for item in found.walk():
        words = what_the_run_gets(item)
        assert describe(item).endswith(words)
        assert explanation(item).endswith(words)
        seen.add(item.outcome)
    assert seen >= set(OUTCOMES) - {"marker"}  # markers: the reason_* cases, below
    for folder in sorted(GOLDEN.glob("reason_*")):
        for item in references_of_case(folder).walk():
            if item.outcome == "marker":
                assert describe(item).endswith(what_the_run_gets(item))
                assert explanation(item).endswith(what_the_run_gets(item))
                seen.add("marker")
    assert seen == set(OUTCOMES)
