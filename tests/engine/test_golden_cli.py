"""`taskdesk expand` prints a golden case's expected bytes, exactly, from a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"
CASES = [
    "crlf_text_and_trailing_breaks",
    "attribute_escaping",
    "hop_two_broken_embeds_name_their_note",
    "element_names_reduced",
    "budget_exactly_64_kib_is_not_over",
    "budget_one_byte_more_is_over",
]
# The console script's own entry point (pyproject's [project.scripts]), run as a real process.
TASKDESK = [sys.executable, "-c", "import sys; from widgets.launcher import main; sys.exit(main())"]


def taskdesk_expand(folder: Path, *extra: str) -> subprocess.CompletedProcess[bytes]:
    agent = json.loads((folder / "workspace.json").read_text(encoding="utf-8"))["agents"][0]["id"]
    return subprocess.run(
        [
            *TASKDESK,
            "expand",
            "--workspace",
            str(folder / "workspace.json"),
            "--agent",
            agent,
            *extra,
        ],
        capture_output=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
        check=False,
        env={"PYTHONIOENCODING": "ascii", "PATH": "/usr/bin:/bin", "LC_ALL": "C"},
    )


@pytest.mark.parametrize("name", CASES)
def test_cli_prints_the_golden_bytes(name: str) -> None:
    folder = GOLDEN / name
    done = taskdesk_expand(folder)
    over = json.loads((folder / "expected.json").read_text(encoding="utf-8")).get("over_budget")
    assert done.stdout == (folder / "expected.txt").read_bytes()
    if over:
        assert (done.returncode, done.stderr.strip()) == (3, b"embed budget exceeded")
    else:
        assert (done.returncode, done.stderr) == (0, b"")


def test_cli_json_matches_the_golden_facts() -> None:
    folder = GOLDEN / "hop_two_broken_embeds_name_their_note"
    done = taskdesk_expand(folder, "--json")
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout.decode("utf-8"))
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    assert body["text"].encode("utf-8") == (folder / "expected.txt").read_bytes()
    assert body["broken_embeds"] == expected["broken"]
    assert body["embedded_bytes"] == expected["embedded_bytes"]
    assert [n["display_path"] for n in body["task_source"]["notes"]] == expected["notes"]
    assert body["task_source"]["embeds"] == expected["embeds"]
