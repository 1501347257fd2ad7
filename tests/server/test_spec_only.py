"""The spec-only reference server: the four spec endpoints, and none of the EXTENSIONs."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from app.server import start_server
from tests.live_server import WORKSPACE_BASIC, LiveServer
from tests.server.http_calls import ORG, SCOUT_TASK, TIMEOUT, call, get_task, put_task
from tests.server_hooks import install_test_hooks

REPO = Path(__file__).resolve().parents[2]
SERVING = re.compile(r"taskdesk: serving http://127\.0\.0\.1:(\d+)\n\Z")
SPEC_TASK_FIELDS = {"path", "display_path", "content", "version", "revisions"}
SPEC_REVISION_FIELDS = {"version", "content", "replaced_at", "replaced_by_name"}
NOT_FOUND = {"error": "not found"}

EXTENSION_CALLS = [
    ("GET", "/api/me"),
    ("GET", "/api/org/agents"),
    ("GET", "/api/org/guilds"),
    ("GET", f"/api/notes/{ORG}/guilds/guild_ops/style-guide.md"),
    ("DELETE", f"/api/notes/{ORG}/escalation.md"),
    ("POST", "/api/agents/a_scout/runs"),
    ("GET", "/api/agents/a_scout/runs"),
    ("GET", "/api/runs/r_anything"),
    ("GET", "/api/agents/a_scout/files/task.md/revisions/1"),
]


@pytest.fixture
def spec_only(tmp_path: Path) -> Iterator[LiveServer]:
    """A spec-only reference server seeded from the basic workspace, test hooks on."""
    db = tmp_path / "spec-only.sqlite3"
    handle = start_server(WORKSPACE_BASIC, db, extensions=False, configure=install_test_hooks)
    tokens = {"ann": "ann-secret", "bob": "bob-secret", "mia": "mia-secret"}
    try:
        yield LiveServer(handle, WORKSPACE_BASIC, db, True, tokens)
    finally:
        handle.stop()


@pytest.mark.parametrize(("method", "path"), EXTENSION_CALLS)
def test_every_extension_is_absent_like_an_unknown_route(
    spec_only: LiveServer, live_server: LiveServer, method: str, path: str
) -> None:
    absent = call(spec_only, method, path, json={} if method == "POST" else None)
    assert (absent.status_code, absent.json()) == (404, NOT_FOUND)
    unknown = call(spec_only, "GET", "/api/no/such/route")
    assert (unknown.status_code, unknown.json()) == (404, NOT_FOUND)
    # The same call on the full server is served (or refused for its own reason), not absent.
    present = call(live_server, method, path, json={} if method == "POST" else None)
    assert present.status_code != 404 or present.json() != NOT_FOUND


def test_task_md_has_no_etag_and_only_the_spec_fields(spec_only: LiveServer) -> None:
    first = call(spec_only, "GET", SCOUT_TASK)
    assert first.status_code == 200
    assert "ETag" not in first.headers
    body = first.json()
    assert set(body) == SPEC_TASK_FIELDS
    assert body["display_path"] == f"{ORG}/agents/a_scout/task.md"
    assert body["revisions"] and all(set(r) == SPEC_REVISION_FIELDS for r in body["revisions"])
    # Any If-None-Match is ignored: the whole Task comes back every time.
    again = call(spec_only, "GET", SCOUT_TASK, headers={"If-None-Match": "*"})
    assert again.status_code == 200 and again.json() == body


def test_the_full_server_keeps_its_etag_and_extra_fields(live_server: LiveServer) -> None:
    first = call(live_server, "GET", SCOUT_TASK)
    assert first.headers["ETag"]
    assert set(first.json()) > SPEC_TASK_FIELDS
    again = call(live_server, "GET", SCOUT_TASK, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


def test_saving_and_a_conflict_without_the_live_version(spec_only: LiveServer) -> None:
    live = get_task(spec_only, "a_scout")
    saved = put_task(spec_only, "a_scout", {"content": "one", "expected_version": live["version"]})
    assert saved.status_code == 200
    assert "ETag" not in saved.headers
    assert set(saved.json()) == SPEC_TASK_FIELDS
    assert saved.json()["version"] == live["version"] + 1
    stale = put_task(spec_only, "a_scout", {"content": "two", "expected_version": live["version"]})
    assert (stale.status_code, stale.json()) == (409, {"error": "version conflict"})


def test_the_full_server_says_the_live_version_in_a_conflict(live_server: LiveServer) -> None:
    live = get_task(live_server, "a_scout")
    put_task(live_server, "a_scout", {"content": "one", "expected_version": live["version"]})
    stale = put_task(live_server, "a_scout", {"content": "two", "expected_version": 1})
    assert stale.status_code == 409
    assert stale.json() == {"error": "version conflict", "version": live["version"] + 1}


def test_the_spec_refusals_are_unchanged(spec_only: LiveServer) -> None:
    member = put_task(spec_only, "a_scout", {"content": "x"}, who="mia")
    assert (member.status_code, member.json()) == (422, {"error": "task is not writable"})
    odd = put_task(spec_only, "a_scout", {"content": "x", "expected_version": "1"})
    assert odd.json() == {"error": "expected_version must be an integer"}
    big = put_task(spec_only, "a_scout", {"content": "é" * 131_073})
    assert (big.status_code, big.json()) == (422, {"error": "write exceeds 256 KB"})
    gone = call(spec_only, "DELETE", SCOUT_TASK)
    assert (gone.status_code, gone.json()) == (422, {"error": "cannot delete this file"})
    nobody = call(spec_only, "GET", "/api/agents/a_nobody/files/task.md")
    assert (nobody.status_code, nobody.json()) == (404, {"error": "no such agent"})
    anonymous = call(spec_only, "GET", SCOUT_TASK, who=None)
    assert anonymous.status_code == 401


def test_embed_status_and_the_picker_notes_are_served(spec_only: LiveServer) -> None:
    status = call(spec_only, "GET", "/api/guilds/guild_ops/embed-status")
    assert status.status_code == 200
    scout = next(a for a in status.json()["agents"] if a["id"] == "a_scout")
    assert any(b["path"].endswith("methods.md") for b in scout["broken_embeds"])
    notes = call(spec_only, "GET", "/api/org/embeddable-notes")
    assert notes.status_code == 200
    assert f"{ORG}/guilds/guild_ops/style-guide.md" in {
        n["display_path"] for n in notes.json()["notes"]
    }


def test_serve_spec_only_on_the_command_line(tmp_path: Path) -> None:
    db = tmp_path / "served.sqlite3"
    args = ["--workspace", WORKSPACE_BASIC, "--db", db, "--port", "0", "--spec-only"]
    with subprocess.Popen(
        [sys.executable, "-m", "app", "serve", *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
    ) as process:
        try:
            assert process.stdout is not None and process.stderr is not None
            first = process.stdout.readline().decode()
            serving = SERVING.match(first)
            assert serving, first
            url = f"http://127.0.0.1:{serving.group(1)}"
            auth = {"Authorization": "Bearer ann-secret"}
            me = requests.get(url + "/api/me", headers=auth, timeout=TIMEOUT)
            assert (me.status_code, me.json()) == (404, NOT_FOUND)
            task = requests.get(url + SCOUT_TASK, headers=auth, timeout=TIMEOUT)
            assert task.status_code == 200 and "ETag" not in task.headers
            process.terminate()
            assert process.wait(timeout=15) == 0
            assert b"Traceback" not in process.stderr.read()
        finally:
            if process.poll() is None:
                process.kill()


# ---------------------------------------------------------------- the app's side of it


def test_the_client_reads_again_without_an_etag_and_conflicts_without_a_version(
    spec_only: LiveServer,
) -> None:
    from app.client import TaskdeskClient, VersionConflict

    with TaskdeskClient(spec_only.url, spec_only.token("ann")) as client:
        first = client.get_task("a_scout")
        assert first.etag is None and client.cached_task("a_scout") is None
        put_task(spec_only, "a_scout", {"content": "changed by Bob"}, who="bob")
        assert client.get_task("a_scout").content == "changed by Bob"  # a whole read again
        with pytest.raises(VersionConflict) as conflict:
            client.put_task("a_scout", "mine", first.version)
        assert conflict.value.live_version is None
        assert "Someone else saved this Task first." in conflict.value.message


def test_opening_a_spec_only_server_records_what_it_lacks(
    spec_only: LiveServer, app_home: Path, tmp_path: Path
) -> None:
    from app.connect.connection import look_up_agent, open_connection
    from app.connect.remembered import remember_last_agent
    from app.store import LocalStore

    store = LocalStore(tmp_path / "store.sqlite3")
    connection = open_connection(spec_only.url, spec_only.token("mia"), store=store)
    try:
        features = connection.features
        assert (features.me, features.agent_list, features.guild_names) == (False, False, False)
        assert features.note_text is False  # asked at once: not the reference server
        assert not features.embed_check  # no guild is known to ask about
        assert connection.me.type == "operator" and connection.me.org_id == ""
        assert connection.agents == [] and connection.guilds == []
        line = features.status_line()
        assert line.startswith("This server lacks: who-am-I, agent list, guild names, note text")
        row = look_up_agent(connection, " a_scout ")
        assert (row.id, row.guild_id) == ("a_scout", "")
        remember_last_agent(connection.server_key, row.id, opened_by_id=True)
        assert connection.learn_from_task(connection.client.get_task("a_scout"))
        assert connection.me.org_id == "o_acme" and features.etags is False
        assert "change tags" in features.status_line()
    finally:
        connection.close()
    again = open_connection(spec_only.url, spec_only.token("ann"), store=store)
    try:
        assert [a.id for a in again.agents] == ["a_scout"]  # remembered for this server
        assert again.initial_agent_id == "a_scout"
    finally:
        again.close()
        store.close()


def test_the_full_server_lacks_nothing(
    live_server: LiveServer, app_home: Path, tmp_path: Path
) -> None:
    from app.connect.connection import open_connection
    from app.store import LocalStore

    store = LocalStore(tmp_path / "store.sqlite3")
    connection = open_connection(live_server.url, live_server.token("ann"), store=store)
    try:
        assert connection.features.is_full and connection.features.status_line() == ""
        assert connection.me.name == "Ann" and connection.guild_ids()
        assert connection.features.note_text is None  # learnt by the preview, if ever
    finally:
        connection.close()
        store.close()


def test_an_address_that_is_no_taskdesk_server_says_so(
    live_server: LiveServer, app_home: Path
) -> None:
    from app.client import TaskdeskError
    from app.connect.connection import open_connection

    with pytest.raises(TaskdeskError) as refused:
        open_connection(live_server.url + "/api", live_server.token("ann"))
    assert "doesn't answer like a Taskdesk server" in refused.value.message
    assert "without /api" in refused.value.message


def test_a_refused_token_is_still_refused_without_api_me(
    spec_only: LiveServer, app_home: Path
) -> None:
    from app.client import Unauthorized
    from app.connect.connection import open_connection

    with pytest.raises(Unauthorized):
        open_connection(spec_only.url, "not-a-token")


def test_an_unknown_agent_id_is_named_in_the_message(
    spec_only: LiveServer, app_home: Path, tmp_path: Path
) -> None:
    from app.client import NotFound
    from app.connect.connection import look_up_agent, open_connection
    from app.store import LocalStore

    store = LocalStore(tmp_path / "store.sqlite3")
    connection = open_connection(spec_only.url, spec_only.token("ann"), store=store)
    try:
        with pytest.raises(NotFound) as missing:
            look_up_agent(connection, "a_nobody")
        assert "no agent with the id “a_nobody”" in missing.value.message
    finally:
        connection.close()
        store.close()


def test_org_id_from_the_task_display_path() -> None:
    from app.connect.server_features import org_id_from_display_path

    assert org_id_from_display_path("org/o_acme/agents/a_scout/task.md") == "o_acme"
    assert org_id_from_display_path("org//agents/a_scout/task.md") is None
    assert org_id_from_display_path("guild/style-guide.md") is None


def test_settings_without_opened_agents_still_load(tmp_path: Path) -> None:
    import json

    from app.connect.settings import Settings, load_settings, save_settings

    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"last_agent": {"k": "a_scout"}}), encoding="utf-8")
    loaded = load_settings(path)
    assert loaded.warning is None and loaded.settings.opened_agents == {}
    saved = Settings(opened_agents={"k": ["a_scout", "a_writer"]})
    save_settings(saved, path)
    assert load_settings(path).settings.opened_agents == {"k": ["a_scout", "a_writer"]}
    path.write_text(json.dumps({"opened_agents": {"k": [1]}}), encoding="utf-8")
    broken = load_settings(path)
    assert broken.settings.opened_agents == {} and "opened_agents" in (broken.warning or "")
