"""The `taskdesk` command line, run as a real process: --version, serve and expand."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import requests

from app.cli import main
from app.cli.serve import default_db_path
from app.core.workspace import load_workspace
from tests.live_server import WORKSPACE_BASIC, LiveServer
from tests.server.http_calls import ORG, TIMEOUT, put_task

REPO = Path(__file__).resolve().parents[2]
SERVING = re.compile(r"taskdesk: serving http://127\.0\.0\.1:(\d+)\n\Z")


def taskdesk(*args: str | Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "app", *map(str, args)],
        capture_output=True,
        cwd=REPO,
        timeout=60,
    )


def _one_clear_line(stderr: bytes) -> str:
    text = stderr.decode()
    assert "Traceback" not in text
    assert text.endswith("\n") and text.count("\n") == 1, text
    return text.strip()


def test_version() -> None:
    done = taskdesk("--version")
    assert (done.returncode, done.stdout) == (0, b"taskdesk 0.1.0\n")


def test_main_returns_codes_instead_of_exiting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == "taskdesk 0.1.0\n"
    assert main(["expand", "--workspace", str(WORKSPACE_BASIC)]) == 2
    assert "--agent" in capsys.readouterr().err
    assert main([]) == 2


def test_expand_prints_the_runs_task_exactly() -> None:
    done = taskdesk("expand", "--workspace", WORKSPACE_BASIC, "--agent", "a_scout")
    assert done.returncode == 0
    assert done.stderr == b""
    expected = load_workspace(WORKSPACE_BASIC).expand_for("a_scout").text
    assert done.stdout == expected.encode("utf-8")
    focus_only = taskdesk("expand", "--workspace", WORKSPACE_BASIC, "--agent", "a_analyst")
    # Nothing is added to a Task that has no final newline.
    assert focus_only.stdout == b"Summarise what the research guild publishes each week."


def test_expand_json() -> None:
    done = taskdesk("expand", "--workspace", WORKSPACE_BASIC, "--agent", "a_scout", "--json")
    assert done.returncode == 0
    body = json.loads(done.stdout)
    assert set(body) == {"text", "broken_embeds", "embedded_bytes", "over_budget", "task_source"}
    assert body["text"] == load_workspace(WORKSPACE_BASIC).expand_for("a_scout").text
    assert body["broken_embeds"][1] == {
        "path": f"{ORG}/guilds/guild_ops/retired.md",
        "hop": 2,
        "in": f"{ORG}/guilds/guild_ops/runbook.md",
    }
    assert body["over_budget"] is False
    assert body["embedded_bytes"] == 307
    assert body["task_source"]["version"] == 3
    assert body["task_source"]["display_path"] == f"{ORG}/agents/a_scout/task.md"


def _over_budget_workspace(tmp_path: Path) -> Path:
    data: dict[str, Any] = json.loads(WORKSPACE_BASIC.read_text(encoding="utf-8"))
    big = f"{ORG}/big.md"
    data["notes"].append(
        {"path": big, "text": "x" * 65_537, "access": [{"principal": "org", "role": "read"}]}
    )
    data["agents"][2]["task"] = f"![[{big}]]"
    path = tmp_path / "big.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_expand_over_budget_prints_the_text_then_exits_3(tmp_path: Path) -> None:
    workspace = _over_budget_workspace(tmp_path)
    done = taskdesk("expand", "--workspace", workspace, "--agent", "a_analyst")
    assert done.returncode == 3
    assert _one_clear_line(done.stderr) == "embed budget exceeded"
    assert done.stdout == load_workspace(workspace).expand_for("a_analyst").text.encode()
    as_json = taskdesk("expand", "--workspace", workspace, "--agent", "a_analyst", "--json")
    assert as_json.returncode == 3
    assert json.loads(as_json.stdout)["over_budget"] is True


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--agent", "a_nobody"], "no agent 'a_nobody'"),
        (["--agent", "a_scout", "--workspace", "/nonexistent/w.json"], "not found"),
        (["--agent", "a_scout", "--workspace", "<notjson>"], "not valid JSON"),
        (["--agent", "a_scout", "--workspace", "<badentry>"], "agents[1] (a_writer): guild"),
        (["--agent", "a_scout", "--db", "/nonexistent/db.sqlite3"], "database not found"),
    ],
)
def test_expand_bad_input_exits_2_with_one_line(tmp_path: Path, args: list[str], says: str) -> None:
    not_json = tmp_path / "notjson.json"
    not_json.write_text("{", encoding="utf-8")
    bad_entry = tmp_path / "badentry.json"
    data = json.loads(WORKSPACE_BASIC.read_text(encoding="utf-8"))
    data["agents"][1]["guild"] = "guild_gone"
    bad_entry.write_text(json.dumps(data), encoding="utf-8")
    args = [
        a.replace("<notjson>", str(not_json)).replace("<badentry>", str(bad_entry)) for a in args
    ]
    if "--workspace" not in args:
        args += ["--workspace", str(WORKSPACE_BASIC)]
    done = taskdesk("expand", *args)
    assert done.returncode == 2
    assert says in _one_clear_line(done.stderr)
    assert done.stdout == b""


def test_expand_from_a_server_database_sees_its_live_task(live_server: LiveServer) -> None:
    assert put_task(live_server, "a_writer", {"content": "Live: ![[org/o_acme/handbook.md]]"}).ok
    done = taskdesk(
        "expand",
        "--workspace",
        WORKSPACE_BASIC,
        "--agent",
        "a_writer",
        "--db",
        live_server.db_path,
        "--json",
    )
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["text"].startswith('Live: <handbook path="org/o_acme/handbook.md" level="org">')
    assert body["task_source"]["version"] == 2


def _serve(*args: str | Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "app", "serve", *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
    )


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT])
def test_serve_prints_its_address_first_and_stops_on_a_signal(
    tmp_path: Path, stop_signal: signal.Signals
) -> None:
    db = tmp_path / "served.sqlite3"
    with _serve("--workspace", WORKSPACE_BASIC, "--db", db, "--port", "0") as process:
        try:
            assert process.stdout is not None and process.stderr is not None
            first = process.stdout.readline().decode()
            serving = SERVING.match(first)
            assert serving, first
            url = f"http://127.0.0.1:{serving.group(1)}"
            me = requests.get(
                url + "/api/me", headers={"Authorization": "Bearer mia-secret"}, timeout=TIMEOUT
            )
            assert me.json()["name"] == "Mia"
            process.send_signal(stop_signal)
            assert process.wait(timeout=15) == 0
            assert b"Traceback" not in process.stderr.read()
            assert process.stdout.read() == b""
        finally:
            if process.poll() is None:
                process.kill()
    assert db.is_file()


def test_serve_stops_when_the_stop_signal_comes_again_and_again(tmp_path: Path) -> None:
    # An app killed with all its threads sends its server the parent-death signal once per
    # thread: a burst of SIGTERMs, some while the handler of the one before is still running.
    db = tmp_path / "served.sqlite3"
    with _serve("--workspace", WORKSPACE_BASIC, "--db", db, "--port", "0") as process:
        try:
            assert process.stdout is not None and process.stderr is not None
            assert SERVING.match(process.stdout.readline().decode())
            for _ in range(200):
                if process.poll() is not None:
                    break
                process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=15) == 0
            assert b"Traceback" not in process.stderr.read()
        finally:
            if process.poll() is None:
                process.kill()


def test_serve_refuses_a_malformed_workspace(tmp_path: Path) -> None:
    data = json.loads(WORKSPACE_BASIC.read_text(encoding="utf-8"))
    data["notes"][3]["access"][0]["role"] = "admin"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "serve",
            "--workspace",
            str(bad),
            "--port",
            "0",
            "--db",
            str(tmp_path / "db.sqlite3"),
        ],
        capture_output=True,
        cwd=REPO,
        timeout=60,
    )
    assert done.returncode == 2
    assert "notes[3].access[0]: role 'admin'" in _one_clear_line(done.stderr)
    assert done.stdout == b""


def test_serve_on_a_busy_port_exits_2(live_server: LiveServer, tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "serve",
            "--workspace",
            str(WORKSPACE_BASIC),
            "--port",
            str(live_server.port),
            "--db",
            str(tmp_path / "db.sqlite3"),
        ],
        capture_output=True,
        cwd=REPO,
        timeout=60,
    )
    assert done.returncode == 2
    assert f"cannot serve on 127.0.0.1:{live_server.port}" in _one_clear_line(done.stderr)


def test_default_database_is_in_the_data_folder_keyed_by_workspace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    one = default_db_path(WORKSPACE_BASIC)
    assert one.is_relative_to(tmp_path / "data" / "taskdesk")
    assert one == default_db_path(Path(os.path.relpath(WORKSPACE_BASIC)))
    assert one != default_db_path(tmp_path / "workspace_basic.json")
