"""The embedded default: the demo workspace seeded into the data folder and served on loopback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.client import TaskdeskClient
from app.connect.embedded import (
    EmbeddedError,
    local_operator,
    local_workspace_paths,
    start_embedded,
)
from app.connect.exit_with_parent import PARENT_VARIABLE
from app.core.resource_files import demo_workspace_text
from tests.app_process import ROOT, app_env
from widgets.window.main_window import MainWindow

TIMEOUT = 15_000


def first_operator() -> tuple[str, str]:
    people = json.loads(demo_workspace_text())["people"]
    person = next(p for p in people if p["type"] == "operator")
    return person["token"], person["name"]


def _without_tokens(workspace: dict) -> dict:
    for entry in [*workspace["people"], *workspace["agents"]]:
        entry.pop("token", None)
    return workspace


def test_first_start_seeds_and_serves_as_the_first_operator(tmp_path: Path) -> None:
    data = tmp_path / "data"
    server = start_embedded(data)
    try:
        workspace, db = local_workspace_paths(data)
        assert _without_tokens(json.loads(workspace.read_text(encoding="utf-8"))) == (
            _without_tokens(json.loads(demo_workspace_text()))
        )
        assert db.exists()
        assert server.url.startswith("http://127.0.0.1:")
        demo_token, demo_name = first_operator()
        assert server.operator_name == demo_name
        assert server.token != demo_token  # fresh secrets: the demo's are published
        with TaskdeskClient(server.url, server.token) as client:
            me = client.me()
            assert me.type == "operator" and me.name == server.operator_name
            agent = client.agents()[0]
            doc = client.get_task(agent.id)
            client.put_task(agent.id, doc.content + "\nKept across starts.", doc.version)
    finally:
        server.stop()
    # A later start serves the same database: the edit is still there.
    again = start_embedded(data)
    try:
        with TaskdeskClient(again.url, again.token) as client:
            assert client.get_task(agent.id).content.endswith("Kept across starts.")
    finally:
        again.stop()


def test_a_damaged_local_workspace_says_what_to_do(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    workspace, _ = local_workspace_paths(data)
    workspace.write_text("{ not json", encoding="utf-8")
    with pytest.raises(EmbeddedError, match="fresh local workspace"):
        local_operator(workspace)
    with pytest.raises(EmbeddedError, match="cannot be read"):
        start_embedded(data)


def test_a_workspace_without_operators_is_refused(tmp_path: Path) -> None:
    demo = json.loads(demo_workspace_text())
    for person in demo["people"]:
        person["type"] = "member"
    path = tmp_path / "ws.json"
    path.write_text(json.dumps(demo), encoding="utf-8")
    with pytest.raises(EmbeddedError, match="no operator"):
        local_operator(path)


def test_unwritable_data_folder_is_a_clear_message(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(EmbeddedError, match="Cannot create the local workspace"):
        start_embedded(blocker / "data")


def test_window_without_a_server_opens_the_local_workspace(qtbot, make_window) -> None:
    window: MainWindow = make_window()
    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
        window.start(None)
    assert window.embedded is not None and window.connection.local
    assert window.connection.me.name == first_operator()[1]
    tab = window.task_tab
    assert tab.editor.text().strip()
    qtbot.waitUntil(lambda: bool(tab.preview.pane.toPlainText().strip()), timeout=TIMEOUT)
    assert window.windowTitle() == f"{tab.agent_name()} — Taskdesk"
    assert window.status_line.server_label.text() == "Local workspace"
    assert window.status_line.person_label.text() == f"Signed in as {first_operator()[1]}"
    assert len(window.agent_model.agent_ids()) == len(json.loads(demo_workspace_text())["agents"])


def test_local_server_process_serves_and_stops(tmp_path: Path) -> None:
    from app.connect.embedded import launch_embedded

    server = launch_embedded(tmp_path / "data").wait()
    process = server.handle.process
    try:
        with TaskdeskClient(server.url, server.token) as client:
            assert client.me().name == first_operator()[1]
    finally:
        server.stop()
    assert process.poll() is not None, "the server process must end with the app"


LAUNCH_AND_WAIT = """
import sys, time
from pathlib import Path
from app.connect.embedded import launch_embedded
server = launch_embedded(Path(sys.argv[1])).wait()
print(server.handle.process.pid, flush=True)
time.sleep(600)
"""


def _ended(pid: int) -> bool:
    """Gone, or a zombie left for init to reap: either way it serves no more."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in status


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal")
def test_the_local_server_ends_when_the_app_is_killed(tmp_path: Path) -> None:
    with subprocess.Popen(
        [sys.executable, "-c", LAUNCH_AND_WAIT, str(tmp_path / "data")],
        cwd=ROOT,
        env=app_env(tmp_path / "home"),
        stdout=subprocess.PIPE,
        text=True,
    ) as app:
        assert app.stdout is not None
        server_pid = int(app.stdout.readline())
        assert not _ended(server_pid)
        app.kill()  # kill -9: the app runs no clean-up of its own
    deadline = time.monotonic() + 20
    while not _ended(server_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    outlived = not _ended(server_pid)
    if outlived:
        os.kill(server_pid, signal.SIGTERM)  # not left running after the test
    assert not outlived, "the local server outlived the app that started it"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal")
@pytest.mark.parametrize("local", [False, True], ids=["at start", "open local workspace"])
def test_the_local_server_the_window_starts_is_told_to_end_with_the_app(
    qtbot, make_window, local: bool
) -> None:
    window: MainWindow = make_window()
    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
        window.start_up.start(None, local=local)
    assert window.embedded is not None
    server = window.embedded.handle.process.pid
    environment = Path(f"/proc/{server}/environ").read_bytes().split(b"\0")
    assert f"{PARENT_VARIABLE}={os.getpid()}".encode() in environment


def test_closing_the_window_stops_the_local_server(qtbot, make_window) -> None:
    window: MainWindow = make_window()
    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
        window.start(None)
    process = window.embedded.handle.process
    window.close()
    window.shutdown()
    assert process.poll() is not None
