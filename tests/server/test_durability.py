"""Racing saves, restarts, seeding once, and workspaces that are refused."""

from __future__ import annotations

import json
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import requests

from app.core.workspace import WorkspaceError
from app.server import start_server
from tests.live_server import WORKSPACE_BASIC, LiveServer, ServerFactory
from tests.server.http_calls import TIMEOUT, WRITER_TASK, call, get_task

BOTH_BACKENDS = True  # every test here runs on SQLite and on PostgreSQL (tests/live_server.py)

CLIENTS = 16


def _race(server: LiveServer, expected_version: int, round_no: int) -> list[requests.Response]:
    """16 clients save different texts against the same version, released at once."""
    barrier = threading.Barrier(CLIENTS)
    results: list[requests.Response | BaseException] = [ValueError("not run")] * CLIENTS
    headers = server.auth("ann" if round_no % 2 else "bob")

    def save(i: int) -> None:
        try:
            with requests.Session() as session:
                barrier.wait(timeout=TIMEOUT)
                results[i] = session.put(
                    server.url + WRITER_TASK,
                    json={
                        "content": f"round {round_no} client {i}",
                        "expected_version": (expected_version),
                    },
                    headers=headers,
                    timeout=TIMEOUT,
                )
        except BaseException as exc:  # reported below, not lost in the thread
            results[i] = exc

    threads = [threading.Thread(target=save, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT * 2)
    responses = [r for r in results if isinstance(r, requests.Response)]
    assert len(responses) == CLIENTS, [r for r in results if not isinstance(r, requests.Response)]
    return responses


def test_sixteen_clients_saving_one_version_give_one_winner(live_server: LiveServer) -> None:
    version = 1
    for round_no in range(6):
        responses = _race(live_server, version, round_no)
        statuses = Counter(r.status_code for r in responses)
        assert statuses == {200: 1, 409: CLIENTS - 1}, statuses
        winner = next(r for r in responses if r.status_code == 200).json()
        assert winner["version"] == version + 1
        for loser in (r for r in responses if r.status_code == 409):
            assert loser.json() == {"error": "version conflict", "version": version + 1}
        live = get_task(live_server, "a_writer")
        assert live["content"] == winner["content"]
        assert live["version"] == version + 1
        version += 1
    assert [r["version"] for r in get_task(live_server, "a_writer")["revisions"]] == [
        6,
        5,
        4,
        3,
        2,
        1,
    ]


def test_data_survives_a_restart(live_server: LiveServer) -> None:
    assert call(live_server, "PUT", WRITER_TASK, json={"content": "kept", "expected_version": 1})
    run = call(live_server, "POST", "/api/agents/a_writer/runs").json()
    note = "org/o_acme/escalation.md"
    assert call(live_server, "DELETE", f"/api/notes/{note}").status_code == 204
    before = get_task(live_server, "a_writer")
    live_server.restart()
    after = get_task(live_server, "a_writer")
    assert after == before
    assert after["content"] == "kept"
    assert after["version"] == 2
    assert call(live_server, "GET", f"/api/runs/{run['id']}").json() == run
    assert call(live_server, "GET", f"/api/notes/{note}").status_code == 404
    assert call(live_server, "PUT", WRITER_TASK, json={"content": "x", "expected_version": 2}).ok


def test_an_existing_database_is_not_seeded_again(
    server_factory: ServerFactory, workspace_basic: dict[str, Any], tmp_path: Path
) -> None:
    db = tmp_path / "kept.sqlite3"
    first = server_factory(workspace_basic, db_path=db)
    assert call(first, "PUT", WRITER_TASK, json={"content": "operator's text"}).ok
    first.stop()
    workspace_basic["agents"][1]["task"] = "a different starting text"
    workspace_basic["guilds"].append({"id": "guild_new", "name": "New"})
    second = server_factory(workspace_basic, db_path=db)
    assert get_task(second, "a_writer")["content"] == "operator's text"
    assert len(call(second, "GET", "/api/org/guilds").json()["guilds"]) == 2


def _broken(mutate: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(WORKSPACE_BASIC.read_text(encoding="utf-8"))
    mutate(data)
    return data


@pytest.mark.parametrize(
    ("mutate", "named"),
    [
        (lambda d: d["agents"][1].update(guild="guild_gone"), "agents[1] (a_writer): guild"),
        (lambda d: d["notes"][2].update(path="notes/style.md"), "notes[2]: path"),
        (lambda d: d["people"][0].pop("token"), "people[0]: token"),
        (
            lambda d: d["notes"][0]["access"].append({"principal": "x", "role": "read"}),
            "notes[0].access[1]",
        ),
        (lambda d: d["agents"][0]["saves"][1].update(by="u_nobody"), "agents[0].saves[1]"),
        (lambda d: d.pop("org"), "org"),
    ],
)
def test_a_malformed_workspace_is_refused_naming_the_entry(
    tmp_path: Path, mutate: Any, named: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_broken(mutate)), encoding="utf-8")
    with pytest.raises(WorkspaceError) as refused:
        start_server(path, tmp_path / "db.sqlite3")
    assert named in str(refused.value)


def test_a_workspace_that_is_not_json_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"org": {"id": "o_acme"},\n "guilds": [}', encoding="utf-8")
    with pytest.raises(WorkspaceError, match="not valid JSON \\(line 2"):
        start_server(path, tmp_path / "db.sqlite3")


def test_stop_is_clean_and_frees_the_port(tmp_path: Path) -> None:
    handle = start_server(WORKSPACE_BASIC, tmp_path / "db.sqlite3")
    with requests.Session() as session:  # an idle keep-alive connection must not hold it
        assert session.get(handle.url + "/openapi.json", timeout=TIMEOUT).ok
        handle.stop()
        assert not handle.running
        with pytest.raises(requests.ConnectionError):
            session.get(handle.url + "/openapi.json", timeout=TIMEOUT)
    with start_server(WORKSPACE_BASIC, tmp_path / "db.sqlite3", port=handle.port) as again:
        assert again.port == handle.port
