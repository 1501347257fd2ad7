"""A workspace file is read only if it is a regular file of bounded size, its notes bounded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.core.limits import WORKSPACE_MAX_BYTES
from app.core.workspace import WorkspaceError, load_workspace
from tests.live_server import WORKSPACE_BASIC

REPO = Path(__file__).resolve().parents[2]


def _basic() -> dict[str, object]:
    data: dict[str, object] = json.loads(WORKSPACE_BASIC.read_text(encoding="utf-8"))
    return data


def test_a_note_over_256_kb_is_refused_naming_the_entry(tmp_path: Path) -> None:
    data = _basic()
    notes = data["notes"]
    assert isinstance(notes, list)
    notes[1]["text"] = "x" * (256 * 1024 + 1)
    path = tmp_path / "ws.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(WorkspaceError) as refused:
        load_workspace(path)
    assert str(refused.value) == f"notes[1] ({notes[1]['path']}): text exceeds 256 KB"


def test_a_note_of_exactly_256_kb_is_taken(tmp_path: Path) -> None:
    data = _basic()
    notes = data["notes"]
    assert isinstance(notes, list)
    notes[1]["text"] = "é" * (128 * 1024)  # 256 KiB of UTF-8 in half as many characters
    path = tmp_path / "ws.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_workspace(path).files[notes[1]["path"]].text == notes[1]["text"]


def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "ws.fifo"
    os.mkfifo(fifo)
    # In a process of its own: today's code blocks forever opening the FIFO.
    check = subprocess.run(
        [sys.executable, "-m", "app", "check", "--workspace", str(fifo)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=30,
        check=False,
    )
    assert check.returncode != 0
    assert f"cannot read workspace file {fifo}: it is not a regular file" in check.stderr
    assert "Traceback" not in check.stderr


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as out:  # sparse: no disk or memory is spent making it
        out.truncate(WORKSPACE_MAX_BYTES + 1)
    with pytest.raises(WorkspaceError) as refused:
        load_workspace(path)
    assert "larger than 64 MB" in str(refused.value)
