"""The embedded default: fresh secrets, private files, loopback only, published tokens refused."""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from app.connect.embedded import (
    DATABASE_FILE,
    SERVER_LOG_FILE,
    WORKSPACE_FILE,
    EmbeddedServer,
    launch_embedded,
)
from app.core.resource_files import demo_workspace_text
from app.server import start_server

TIMEOUT = 15.0
NOBODY = 65534  # the unprivileged user every Linux system has
DEMO = json.loads(demo_workspace_text())
DEMO_TOKENS = [e["token"] for e in [*DEMO["people"], *DEMO["agents"]] if e.get("token")]


def _me(server: EmbeddedServer, token: str) -> requests.Response:
    return requests.get(
        server.url + "/api/me", headers={"Authorization": f"Bearer {token}"}, timeout=TIMEOUT
    )


@pytest.fixture
def open_place() -> Iterator[Path]:
    """A folder every user may enter (tmp_path's parents are 0700, which would hide a leak)."""
    place = Path(tempfile.mkdtemp(prefix="taskdesk-embedded-"))
    place.chmod(0o755)
    yield place
    shutil.rmtree(place, ignore_errors=True)


@pytest.fixture
def embedded(open_place: Path) -> Iterator[EmbeddedServer]:
    server = launch_embedded(open_place / "data").wait()
    yield server
    server.stop()


def test_the_published_demo_tokens_get_401(embedded: EmbeddedServer) -> None:
    for token in DEMO_TOKENS:
        assert _me(embedded, token).status_code == 401, token
    me = _me(embedded, embedded.token)
    assert me.status_code == 200
    assert (me.json()["name"], me.json()["type"]) == ("Ann", "operator")  # people keep roles


def test_every_person_and_agent_gets_a_fresh_secret(open_place: Path) -> None:
    server = launch_embedded(open_place / "data").wait()
    server.stop()
    local = json.loads((open_place / "data" / WORKSPACE_FILE).read_text(encoding="utf-8"))
    tokens = [e["token"] for e in [*local["people"], *local["agents"]] if e.get("token")]
    assert len(tokens) == len(DEMO_TOKENS) == len(set(tokens))
    assert not set(tokens) & set(DEMO_TOKENS)
    assert all(len(t) >= 40 for t in tokens)
    assert [p["name"] for p in local["people"]] == [p["name"] for p in DEMO["people"]]
    assert [p["type"] for p in local["people"]] == [p["type"] for p in DEMO["people"]]


def test_the_folder_and_its_files_are_private(embedded: EmbeddedServer, open_place: Path) -> None:
    data = open_place / "data"
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    files = [WORKSPACE_FILE, DATABASE_FILE, SERVER_LOG_FILE, DATABASE_FILE + "-wal"]
    for name in files:
        assert (data / name).exists(), name
        assert stat.S_IMODE((data / name).stat().st_mode) == 0o600, name


def _read_as_nobody(path: Path) -> subprocess.CompletedProcess[str]:
    """``cat`` run as another user (the venv's Python sits where that user can't go)."""
    return subprocess.run(
        [shutil.which("cat") or "/bin/cat", str(path)],
        user=NOBODY,
        group=NOBODY,
        extra_groups=[],
        capture_output=True,
        text=True,
        timeout=30,
        cwd="/",
    )


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to run a process as another user")
def test_another_user_cannot_read_the_workspace_or_the_database(
    embedded: EmbeddedServer, open_place: Path
) -> None:
    # The check can fail: a 0644 file beside the data folder is readable by nobody.
    control = open_place / "readable.txt"
    control.write_text("anyone")
    control.chmod(0o644)
    assert _read_as_nobody(control).stdout == "anyone"

    data = open_place / "data"
    for name in (WORKSPACE_FILE, DATABASE_FILE):
        done = _read_as_nobody(data / name)
        assert done.returncode != 0 and "Permission denied" in done.stderr, name
    # Even with the folder opened up, the files themselves refuse.
    data.chmod(0o755)
    try:
        for name in (WORKSPACE_FILE, DATABASE_FILE):
            done = _read_as_nobody(data / name)
            assert done.returncode != 0 and "Permission denied" in done.stderr, name
    finally:
        data.chmod(0o700)


def test_the_server_listens_on_loopback_only(embedded: EmbeddedServer) -> None:
    assert embedded.url.startswith("http://127.0.0.1:")
    port = int(embedded.url.rsplit(":", 1)[1])
    outside = _non_loopback_address()
    if outside is None:
        pytest.skip("this machine has no address other than loopback")
    with pytest.raises(OSError), socket.create_connection((outside, port), timeout=2):
        pass


def _non_loopback_address() -> str | None:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks a route
            address: str = probe.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") else address


def test_a_local_workspace_made_with_the_demo_tokens_gets_fresh_ones(
    open_place: Path, tmp_path: Path
) -> None:
    """An earlier Taskdesk copied the demo verbatim (0644) and seeded its database from it."""
    data = open_place / "data"
    data.mkdir(mode=0o755)
    old = data / WORKSPACE_FILE
    old.write_text(demo_workspace_text(), encoding="utf-8")
    old.chmod(0o644)
    with start_server(old, data / DATABASE_FILE) as before:
        saved = requests.put(
            before.url + "/api/agents/a_scout/files/task.md",
            json={"content": "Written before the upgrade."},
            headers={"Authorization": "Bearer ann-secret"},
            timeout=TIMEOUT,
        )
        assert saved.status_code == 200
    server = launch_embedded(data).wait()
    try:
        for token in DEMO_TOKENS:
            assert _me(server, token).status_code == 401, token
        task = requests.get(
            server.url + "/api/agents/a_scout/files/task.md",
            headers={"Authorization": f"Bearer {server.token}"},
            timeout=TIMEOUT,
        )
        assert task.json()["content"] == "Written before the upgrade."  # nothing lost
    finally:
        server.stop()
    assert stat.S_IMODE(old.stat().st_mode) == 0o600
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
