"""The proposals endpoints against the real reference server: the contract, word for word."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import requests

from app.server import start_server
from tests.live_server import WORKSPACE_BASIC, LiveServer
from tests.server.http_calls import SCOUT_TASK, TIMEOUT, call, get_task, put_task

SCOUT_PROPOSALS = "/api/agents/a_scout/proposals"


def _propose(
    server: LiveServer, who: str = "mia", agent: str = "a_scout", **body: Any
) -> requests.Response:
    live = get_task(server, agent)
    draft = {"content": live["content"] + "\nOne more line.\n", "base_version": live["version"]}
    draft["title"] = "Add a line"
    draft.update(body)
    return call(server, "POST", f"/api/agents/{agent}/proposals", who, json=draft)


def _error(answer: requests.Response) -> tuple[int, str]:
    return answer.status_code, answer.json()["error"]


def test_a_member_proposes_and_an_operator_publishes(live_server: LiveServer) -> None:
    made = _propose(live_server, note="Because the queue grew.")
    assert made.status_code == 201, made.text
    proposal = made.json()
    live = get_task(live_server, "a_scout")
    assert proposal["status"] == "open" and proposal["revision"] == 1
    assert proposal["author"] == {"id": "u_mia", "name": "Mia", "type": "member"}
    assert proposal["base_version"] == proposal["live_version"] == live["version"]
    assert proposal["note"] == "Because the queue grew."
    published = call(
        live_server,
        "POST",
        f"/api/proposals/{proposal['id']}/publish",
        "ann",
        json={"content": proposal["content"], "expected_version": live["version"]},
    )
    assert published.status_code == 200, published.text
    body = published.json()
    assert body["proposal"]["status"] == "published"
    assert body["proposal"]["published_version"] == live["version"] + 1
    assert body["proposal"]["decided_by_name"] == "Ann"
    assert body["task"]["version"] == live["version"] + 1
    assert body["task"]["content"] == proposal["content"]
    assert body["task"]["proposal"] == {"id": proposal["id"], "author_name": "Mia"}
    task = get_task(live_server, "a_scout")
    assert task["updated_by_name"] == "Ann"
    assert task["proposal"] == {"id": proposal["id"], "author_name": "Mia"}
    assert all("proposal" not in r for r in task["revisions"])
    # The next save archives the published version, which keeps its origin.
    assert put_task(live_server, "a_scout", {"content": "Later."}).status_code == 200
    later = get_task(live_server, "a_scout")
    assert "proposal" not in later
    assert later["revisions"][0]["proposal"] == {"id": proposal["id"], "author_name": "Mia"}
    # Lists: the agent's newest first, the org's oldest first, neither with content.
    listed = call(live_server, "GET", SCOUT_PROPOSALS, "mia").json()["proposals"]
    assert [p["id"] for p in listed] == [proposal["id"]]
    assert "content" not in listed[0]


def test_every_refusal_of_a_new_proposal(live_server: LiveServer) -> None:
    live = get_task(live_server, "a_scout")
    assert _error(_propose(live_server, who="scout")) == (422, "task is not writable")
    assert _error(_propose(live_server, content=5)) == (422, "content must be a string")
    big = "x" * 262_145
    assert _error(_propose(live_server, content=big)) == (422, "write exceeds 256 KB")
    for bad in ("1", 1.5, True, None):
        assert _error(_propose(live_server, base_version=bad)) == (
            422,
            "base_version must be an integer",
        )
    assert _error(_propose(live_server, base_version=999)) == (422, "no such base version")
    for bad_title in ("", "   ", "x" * 201, 7):
        assert _error(_propose(live_server, title=bad_title)) == (
            422,
            "title must be 1 to 200 characters",
        )
    assert _error(_propose(live_server, note="n" * 2001)) == (
        422,
        "note must be at most 2000 characters",
    )
    assert _error(_propose(live_server, content=live["content"])) == (
        422,
        "proposal changes nothing",
    )
    # Against a kept revision: its text is the base.
    older = live["revisions"][0]
    assert _propose(live_server, base_version=older["version"]).status_code == 201
    assert _error(
        _propose(live_server, base_version=older["version"], content=older["content"])
    ) == (422, "proposal changes nothing")
    answer = call(live_server, "POST", "/api/agents/a_missing/proposals", "mia", json={})
    assert _error(answer) == (404, "no such agent")


def test_twenty_open_proposals_are_the_most_an_agent_has(live_server: LiveServer) -> None:
    for n in range(20):
        assert _propose(live_server, content=f"Text {n}\n").status_code == 201
    assert _error(_propose(live_server, content="one more\n")) == (422, "too many open proposals")
    assert _propose(live_server, agent="a_writer").status_code == 201  # another agent's are free


def test_revise_withdraw_and_decline(live_server: LiveServer) -> None:
    proposal = _propose(live_server).json()
    path = f"/api/proposals/{proposal['id']}"
    body = {"content": proposal["content"] + "Two.\n", "base_version": proposal["base_version"]}
    assert _error(call(live_server, "PUT", path, "ann", json=body)) == (422, "not your proposal")
    revised = call(live_server, "PUT", path, "mia", json=body)
    assert revised.status_code == 200, revised.text
    assert revised.json()["revision"] == 2 and revised.json()["title"] == "Add a line"
    first = call(live_server, "GET", path + "?revision=1", "bob").json()
    assert first["revision"] == 1 and first["content"] == proposal["content"]
    assert call(live_server, "GET", path, "bob").json()["content"] == body["content"]
    assert _error(call(live_server, "GET", path + "?revision=9", "bob")) == (
        404,
        "no such revision",
    )
    # The same body again adds no revision.
    assert call(live_server, "PUT", path, "mia", json=body).json()["revision"] == 2
    assert _error(call(live_server, "POST", path + "/decline", "mia", json={"reason": "x"})) == (
        422,
        "task is not writable",
    )
    assert _error(call(live_server, "POST", path + "/decline", "ann", json={"reason": " "})) == (
        422,
        "reason must be 1 to 2000 characters",
    )
    declined = call(live_server, "POST", path + "/decline", "ann", json={"reason": "Too long."})
    assert declined.status_code == 200
    seen = call(live_server, "GET", path, "mia").json()
    assert (seen["status"], seen["reason"], seen["decided_by_name"]) == (
        "declined",
        "Too long.",
        "Ann",
    )
    assert _error(call(live_server, "PUT", path, "mia", json=body)) == (409, "proposal is not open")
    assert _error(call(live_server, "POST", path + "/withdraw", "mia")) == (
        409,
        "proposal is not open",
    )
    publish = {"content": "x", "expected_version": proposal["live_version"]}
    assert _error(call(live_server, "POST", path + "/publish", "ann", json=publish)) == (
        409,
        "proposal is not open",
    )
    other = _propose(live_server, content="Other.\n").json()
    other_path = f"/api/proposals/{other['id']}"
    assert _error(call(live_server, "POST", other_path + "/withdraw", "ann")) == (
        422,
        "not your proposal",
    )
    withdrawn = call(live_server, "POST", other_path + "/withdraw", "mia")
    assert withdrawn.json()["status"] == "withdrawn"


def test_publish_refusals(live_server: LiveServer) -> None:
    proposal = _propose(live_server).json()
    path = f"/api/proposals/{proposal['id']}/publish"
    version = proposal["live_version"]
    good = {"content": proposal["content"], "expected_version": version}
    assert _error(call(live_server, "POST", path, "mia", json=good)) == (
        422,
        "task is not writable",
    )
    assert _error(
        call(live_server, "POST", path, "ann", json={**good, "expected_version": "2"})
    ) == (422, "expected_version must be an integer")
    assert _error(call(live_server, "POST", path, "ann", json={**good, "content": None})) == (
        422,
        "content must be a string",
    )
    live = get_task(live_server, "a_scout")
    assert _error(
        call(live_server, "POST", path, "ann", json={**good, "content": live["content"]})
    ) == (422, "proposal changes nothing")
    assert put_task(live_server, "a_scout", {"content": "Moved on.\n"}).status_code == 200
    conflict = call(live_server, "POST", path, "ann", json=good)
    assert conflict.status_code == 409
    assert conflict.json() == {"error": "version conflict", "version": version + 1}
    assert call(live_server, "GET", f"/api/proposals/{proposal['id']}").json()["status"] == "open"


def test_who_reads_proposals(live_server: LiveServer) -> None:
    proposal = _propose(live_server).json()
    path = f"/api/proposals/{proposal['id']}"
    assert call(live_server, "GET", SCOUT_PROPOSALS, "scout").json() == {"proposals": []}
    assert _error(call(live_server, "GET", path, "scout")) == (404, "no such proposal")
    assert _error(call(live_server, "POST", path + "/withdraw", "scout")) == (
        404,
        "no such proposal",
    )
    assert call(live_server, "GET", path, "bob").status_code == 200
    assert _error(call(live_server, "GET", "/api/org/proposals", "mia")) == (422, "operators only")
    assert _error(call(live_server, "GET", "/api/org/proposals", "scout")) == (
        422,
        "operators only",
    )
    assert _error(call(live_server, "GET", "/api/proposals/prop_missing", "ann")) == (
        404,
        "no such proposal",
    )
    assert call(live_server, "GET", SCOUT_PROPOSALS, None).status_code == 401


def test_the_org_queue_is_oldest_first_and_filters_by_status(live_server: LiveServer) -> None:
    first = _propose(live_server).json()
    second = _propose(live_server, agent="a_writer").json()
    call(live_server, "POST", f"/api/proposals/{first['id']}/withdraw", "mia")
    third = _propose(live_server, content="Third.\n").json()
    every = call(live_server, "GET", "/api/org/proposals", "ann").json()["proposals"]
    assert [p["id"] for p in every] == [first["id"], second["id"], third["id"]]
    opened = call(live_server, "GET", "/api/org/proposals?status=open", "ann").json()
    assert [p["id"] for p in opened["proposals"]] == [second["id"], third["id"]]
    assert all("content" not in p for p in opened["proposals"])
    assert call(live_server, "GET", "/api/org/proposals?status=nope", "ann").status_code == 422


def test_each_step_is_in_the_org_log(live_server: LiveServer) -> None:
    proposal = _propose(live_server).json()
    path = f"/api/proposals/{proposal['id']}"
    body = {"content": proposal["content"] + "Two.\n", "base_version": proposal["base_version"]}
    call(live_server, "PUT", path, "mia", json=body)
    call(
        live_server,
        "POST",
        path + "/publish",
        "ann",
        json={"content": body["content"], "expected_version": proposal["live_version"]},
    )
    with sqlite3.connect(live_server.db_path) as conn:
        kinds = [k for (k,) in conn.execute("SELECT kind FROM org_events ORDER BY id")]
    assert kinds[-4:] == ["proposal_opened", "proposal_revised", "task_saved", "proposal_published"]


def test_a_spec_only_server_has_no_proposals(tmp_path: Path) -> None:
    with start_server(WORKSPACE_BASIC, tmp_path / "spec.sqlite3", extensions=False) as plain:
        auth = {"Authorization": "Bearer ann-secret"}
        for path in (SCOUT_PROPOSALS, "/api/org/proposals", "/api/proposals/prop_x"):
            answer = requests.get(plain.url + path, headers=auth, timeout=TIMEOUT)
            assert (answer.status_code, answer.json()) == (404, {"error": "not found"})
        task = requests.get(plain.url + SCOUT_TASK, headers=auth, timeout=TIMEOUT).json()
        assert "proposal" not in task


def test_versions_past_64_bits_and_an_empty_status_are_refused_in_words(
    live_server: LiveServer,
) -> None:
    """The API tester's finds: a base past SQLite's integers answered 500, ``?status=`` was
    taken for every status, a revision past 64 bits reached the database."""
    huge = -36893488147419103231
    assert _error(_propose(live_server, base_version=huge)) == (422, "no such base version")
    assert _error(_propose(live_server, base_version=2**63)) == (422, "no such base version")
    listed = call(live_server, "GET", "/api/org/proposals?status=")
    assert _error(listed) == (422, "status must be open, published, declined or withdrawn")
    made = _propose(live_server)
    assert made.status_code == 201
    far = call(live_server, "GET", f"/api/proposals/{made.json()['id']}?revision={2**64}")
    assert _error(far) == (404, "no such revision")


def test_another_method_on_a_notes_used_by_or_impact_is_405_with_their_allow(
    live_server: LiveServer,
) -> None:
    style = "/api/notes/org/o_acme/guilds/guild_ops/style-guide.md"
    for suffix, allowed in (("/used-by", "GET"), ("/impact", "POST")):
        answer = call(live_server, "PUT", style + suffix, json={"text": "x"})
        assert answer.status_code == 405, (suffix, answer.text)
        assert answer.headers["Allow"] == allowed
    assert call(live_server, "GET", style).status_code == 200  # the note itself still is one
