"""`taskdesk check --all` and `taskdesk search`, on a workspace file and on a live server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import requests

from app.cli import main
from app.core.resource_files import resource
from app.server import start_server
from tests.live_server import WORKSPACE_BASIC, LiveServer
from tests.server.http_calls import TIMEOUT

DEMO = resource("demo_workspace.json")


def _json(capsys: pytest.CaptureFixture[str]) -> dict:
    return json.loads(capsys.readouterr().out)


def test_check_all_prints_the_servers_rows_and_fails_ci_on_a_broken_agent(
    live_server: LiveServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TASKDESK_TOKEN", live_server.token("ann"))
    code = main(["check", "--all", "--json", "--server", live_server.url])
    printed = _json(capsys)
    served = requests.get(
        live_server.url + "/api/org/health", headers=live_server.auth("ann"), timeout=TIMEOUT
    ).json()
    assert printed == served
    scout = next(r for r in printed["agents"] if r["id"] == "a_scout")
    assert scout["broken_embeds"] > 0
    assert code == 1


def test_check_all_on_a_workspace_gives_the_rows_a_server_seeded_from_it_gives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", "--all", "--json", "--workspace", str(DEMO)])
    local = _json(capsys)["agents"]
    with start_server(DEMO, tmp_path / "demo.sqlite3") as server:
        token = json.loads(DEMO.read_text())["people"][0]["token"]
        served = requests.get(
            server.url + "/api/org/health",
            headers={"Authorization": f"Bearer {token}"},
            timeout=TIMEOUT,
        ).json()["agents"]
    assert sorted(local, key=lambda r: r["id"]) == served
    assert code == 1  # the demo keeps an agent over budget on purpose
    assert any(r["over_budget"] for r in local)


def test_check_all_exits_0_when_every_agent_is_clean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clean = json.loads(WORKSPACE_BASIC.read_text())
    clean["agents"] = [a for a in clean["agents"] if a["id"] == "a_analyst"]
    path = tmp_path / "clean.json"
    path.write_text(json.dumps(clean))
    assert main(["check", "--all", "--workspace", str(path)]) == 0
    assert capsys.readouterr().out.endswith("0 of 1 agents are broken or over budget\n")


def test_search_in_tasks_and_prompts_on_a_workspace_and_a_server(
    live_server: LiveServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["search", "--workspace", str(WORKSPACE_BASIC), "short sentences"]) == 1
    assert capsys.readouterr().out == ""
    args = ["search", "--workspace", str(WORKSPACE_BASIC), "short sentences", "--prompt"]
    assert main([*args, "--json"]) == 0
    local = _json(capsys)
    assert {a["id"] for a in local["agents"]} == {"a_scout", "a_writer"}
    monkeypatch.setenv("TASKDESK_TOKEN", live_server.token("ann"))
    args = ["search", "--server", live_server.url, "short sentences", "--prompt", "--json"]
    assert main(args) == 0
    assert _json(capsys) == local
    assert main(["search", "--server", live_server.url, "one draft"]) == 0
    assert capsys.readouterr().out.startswith("a_writer:9:3: - One draft per ticket.")


def test_a_bad_pattern_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "--workspace", str(WORKSPACE_BASIC), "(", "--regex"]) == 2
    err = capsys.readouterr().err
    assert err == "taskdesk: the pattern '(' is not a Python regular expression\n"
