"""Real processes: a draft survives kill -9, and two Taskdesk instances never corrupt the file."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from app.store import LocalStore

SERVER = "http://127.0.0.1:8000"
ROOT = Path(__file__).resolve().parents[2]

# Saves drafts "<n>:" + padding forever, printing n once save_draft has returned.
WRITER = """
import sys
from pathlib import Path
from app.store import LocalStore
store = LocalStore(Path(sys.argv[1]))
n = 0
while True:
    n += 1
    store.save_draft(sys.argv[2], "a_scout", f"{n}:" + "z" * 200_000, n, agent_name="Scout")
    print(n, flush=True)
"""

# Writes COUNT drafts and history entries tagged with its name, then exits.
INSTANCE = """
import sys
from pathlib import Path
from app.store import LocalStore
path, name, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
with LocalStore(path) as store:
    for i in range(count):
        text = f"{name} {i} " + name * 5000
        store.save_draft(sys.argv[4], "a_scout", text, i, agent_name=name)
        store.add_history(sys.argv[4], "a_scout", text, "discarded", i)
print("done", flush=True)
"""


def _spawn(code: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _integrity(path: Path) -> str:
    with closing(sqlite3.connect(path)) as raw:
        return str(raw.execute("PRAGMA integrity_check").fetchone()[0])


@pytest.mark.slow
@pytest.mark.parametrize("saves_before_kill", [1, 7, 30])
def test_draft_survives_kill_9(tmp_path: Path, saves_before_kill: int) -> None:
    path = tmp_path / "store.sqlite3"
    child = _spawn(WRITER, str(path), SERVER)
    assert child.stdout is not None
    confirmed = 0
    while confirmed < saves_before_kill:
        line = child.stdout.readline()
        assert line, child.stderr.read() if child.stderr else "writer exited"
        confirmed = int(line)
    child.send_signal(signal.SIGKILL)  # mid-way through a later save, most likely
    child.wait(timeout=30)
    child.stdout.close()
    if child.stderr:
        child.stderr.close()

    assert _integrity(path) == "ok"
    with LocalStore(path) as store:
        [draft] = store.list_drafts()
    n, _, padding = draft.text.partition(":")
    assert int(n) >= confirmed  # every save that returned is on disk
    assert padding == "z" * 200_000  # and no save is half there
    assert (draft.agent_name, draft.base_version) == ("Scout", int(n))


@pytest.mark.slow
def test_two_instances_writing_at_once(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    LocalStore(path).close()
    count = 60
    children = [_spawn(INSTANCE, str(path), name, str(count), SERVER) for name in ("left", "right")]
    for child in children:
        out, err = child.communicate(timeout=120)
        assert (child.returncode, out.strip()) == (0, "done"), err

    assert _integrity(path) == "ok"
    with LocalStore(path) as store:
        draft = store.get_draft(SERVER, "a_scout")
        entries = store.history(SERVER, "a_scout")
    assert draft is not None
    # Last writer wins: the draft is one instance's final text, whole.
    assert draft.text in {f"{name} {count - 1} " + name * 5000 for name in ("left", "right")}
    assert len(entries) == 2 * count  # no write was lost
