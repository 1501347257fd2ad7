"""GET, PUT and DELETE task.md over real HTTP: the spec's rules and limits, word for word."""

from __future__ import annotations

import pytest

from app.core.models import sha256_hex
from tests.live_server import LiveServer
from tests.server.http_calls import ORG, WRITER_TASK, call, get_task, put_task

BOTH_BACKENDS = True  # every test here runs on SQLite and on PostgreSQL (tests/live_server.py)

LIMIT = 262_144


def test_get_returns_the_live_task_and_its_seeded_history(live_server: LiveServer) -> None:
    body = get_task(live_server, "a_scout")
    assert body["path"] == "task.md"
    assert body["display_path"] == f"{ORG}/agents/a_scout/task.md"
    assert body["version"] == 3
    assert body["content"].startswith("# Scout\n")
    assert body["hash"] == sha256_hex(body["content"])
    assert body["updated_by_name"] == "Bob"
    assert [(r["version"], r["replaced_by_name"], r["replaced_at"]) for r in body["revisions"]] == [
        (2, "Bob", "2026-01-06T10:30:00.000Z"),
        (1, "Ann", "2026-01-05T09:00:00.000Z"),
    ]
    assert body["revisions"][1]["content"] == "Watch the queue."  # the focus started it
    assert body["revisions"][0]["replaced_by_type"] == "operator"
    assert body["revisions"][0]["replaced_by_id"] == "u_bob"


def test_an_agent_without_task_or_focus_starts_from_the_template(live_server: LiveServer) -> None:
    body = get_task(live_server, "a_helper")
    assert body["version"] == 1
    assert "collaborate with the members of your guild" in body["content"]
    assert body["revisions"] == []


@pytest.mark.parametrize("who", ["ann", "mia", "scout", "analyst"])
def test_any_caller_of_the_org_reads_a_task(live_server: LiveServer, who: str) -> None:
    assert get_task(live_server, "a_writer", who)["version"] == 1


def test_unknown_agent_is_404(live_server: LiveServer) -> None:
    for method in ("GET", "PUT", "DELETE"):
        response = call(live_server, method, "/api/agents/a_nobody/files/task.md", json={})
        assert (response.status_code, response.json()) == (404, {"error": "no such agent"})


def test_save_adds_a_version_and_archives_the_previous_text(live_server: LiveServer) -> None:
    before = get_task(live_server, "a_writer")
    response = put_task(live_server, "a_writer", {"content": "New text", "expected_version": 1})
    assert response.status_code == 200
    body = response.json()
    assert body["version"] == 2
    assert body["content"] == "New text"
    assert body["updated_by_name"] == "Ann"
    assert [(r["version"], r["content"]) for r in body["revisions"]] == [(1, before["content"])]
    assert body["revisions"][0]["replaced_by_name"] == "Ann"
    assert body["revisions"][0]["replaced_at"].endswith("Z")
    assert response.headers["ETag"] == call(live_server, "GET", WRITER_TASK).headers["ETag"]
    assert get_task(live_server, "a_writer", "bob") == body


def test_save_without_expected_version_is_accepted(live_server: LiveServer) -> None:
    response = put_task(live_server, "a_writer", {"content": "Anything"})
    assert (response.status_code, response.json()["version"]) == (200, 2)


def test_stale_expected_version_is_409_with_the_live_version(live_server: LiveServer) -> None:
    assert put_task(live_server, "a_writer", {"content": "one", "expected_version": 1}).ok
    response = put_task(live_server, "a_writer", {"content": "two", "expected_version": 1})
    assert response.status_code == 409
    assert response.json() == {"error": "version conflict", "version": 2}
    assert get_task(live_server, "a_writer")["content"] == "one"


@pytest.mark.parametrize("bad", ["1", 1.5, True, False, None, [1], {"v": 1}])
def test_non_integer_expected_version_is_422(live_server: LiveServer, bad: object) -> None:
    response = put_task(live_server, "a_writer", {"content": "x", "expected_version": bad})
    assert response.status_code == 422
    assert response.json() == {"error": "expected_version must be an integer"}
    assert get_task(live_server, "a_writer")["version"] == 1


@pytest.mark.parametrize("integer", [2**63 - 1, -(2**63), 3 * 10**26, 7.0])
def test_every_integer_is_taken_as_a_version(live_server: LiveServer, integer: float) -> None:
    # The API document's JSON Schema says integer: 7.0 is one, and so are integers past
    # 64 bits (the body's reader takes those as numbers with a fraction of zero).
    response = put_task(live_server, "a_writer", {"content": "x", "expected_version": integer})
    assert (response.status_code, response.json()) == (
        409,
        {"error": "version conflict", "version": 1},
    )


@pytest.mark.parametrize("who", ["mia", "scout", "writer"])
def test_only_operators_write(live_server: LiveServer, who: str) -> None:
    response = put_task(live_server, "a_writer", {"content": "mine now"}, who=who)
    assert (response.status_code, response.json()) == (422, {"error": "task is not writable"})
    assert get_task(live_server, "a_writer")["version"] == 1


@pytest.mark.parametrize("content", [5, None, ["a"], {"a": 1}, True])
def test_content_not_a_string_is_422(live_server: LiveServer, content: object) -> None:
    response = put_task(live_server, "a_writer", {"content": content})
    assert (response.status_code, response.json()) == (422, {"error": "content must be a string"})


def test_missing_content_is_422(live_server: LiveServer) -> None:
    response = put_task(live_server, "a_writer", {"expected_version": 1})
    assert (response.status_code, response.json()) == (422, {"error": "content must be a string"})


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"{not json", "request body is not valid JSON"),
        (b"", "request body is not valid JSON"),
        (b'["content"]', "request body must be a JSON object"),
        (b'"text"', "request body must be a JSON object"),
    ],
)
def test_a_body_that_is_not_a_json_object_is_422(
    live_server: LiveServer, raw: bytes, message: str
) -> None:
    response = call(
        live_server, "PUT", WRITER_TASK, data=raw, headers={"Content-Type": "application/json"}
    )
    assert (response.status_code, response.json()) == (422, {"error": message})


@pytest.mark.parametrize("unit", ["a", "é", "€", "😀"])  # 1, 2, 3 and 4 UTF-8 bytes
def test_size_limit_counts_utf8_bytes(live_server: LiveServer, unit: str) -> None:
    size = len(unit.encode())
    fits = unit * (LIMIT // size) + "a" * (LIMIT % size)
    assert len(fits.encode()) == LIMIT
    response = put_task(live_server, "a_writer", {"content": fits})
    assert response.status_code == 200, response.text
    assert response.json()["content"] == fits
    over = fits + unit
    assert len(over.encode()) == LIMIT + size
    assert len(over) < LIMIT or size == 1  # characters alone would let it through
    response = put_task(live_server, "a_writer", {"content": over})
    assert (response.status_code, response.json()) == (422, {"error": "write exceeds 256 KB"})
    assert get_task(live_server, "a_writer")["content"] == fits


def test_one_byte_over_is_refused(live_server: LiveServer) -> None:
    response = put_task(live_server, "a_writer", {"content": "é" * (LIMIT // 2) + "a"})
    assert (response.status_code, response.json()) == (422, {"error": "write exceeds 256 KB"})


def _file_changes(server: LiveServer, agent: str) -> int:
    (row,) = server.query(
        "SELECT count(*) FROM file_changes WHERE display_path = ?",
        (f"{ORG}/agents/{agent}/task.md",),
    )
    return int(row[0])


def test_saving_the_same_text_changes_nothing(live_server: LiveServer) -> None:
    live = get_task(live_server, "a_scout")
    changes = _file_changes(live_server, "a_scout")
    etag = call(live_server, "GET", "/api/agents/a_scout/files/task.md").headers["ETag"]
    response = put_task(live_server, "a_scout", {"content": live["content"], "expected_version": 3})
    assert response.status_code == 200
    assert response.json() == live
    assert response.headers["ETag"] == etag
    assert _file_changes(live_server, "a_scout") == changes


def test_each_changing_save_records_a_file_change(live_server: LiveServer) -> None:
    changes = _file_changes(live_server, "a_writer")
    for text in ("a", "b", "c"):
        assert put_task(live_server, "a_writer", {"content": text}).ok
    assert _file_changes(live_server, "a_writer") == changes + 3


def test_the_newest_fifty_revisions_are_kept(live_server: LiveServer) -> None:
    for i in range(2, 56):
        response = put_task(live_server, "a_writer", {"content": f"v{i}"})
        assert response.json()["version"] == i
    body = get_task(live_server, "a_writer")
    assert body["version"] == 55
    versions = [r["version"] for r in body["revisions"]]
    assert versions == list(range(54, 4, -1))
    assert len(versions) == 50
    assert body["revisions"][0]["content"] == "v54"


def test_an_empty_previous_text_is_not_archived(live_server: LiveServer) -> None:
    assert put_task(live_server, "a_writer", {"content": ""}).json()["version"] == 2
    body = put_task(live_server, "a_writer", {"content": "back"}).json()
    assert body["version"] == 3
    assert [r["version"] for r in body["revisions"]] == [1]  # v2 was empty


def test_delete_task_is_refused(live_server: LiveServer) -> None:
    response = call(live_server, "DELETE", WRITER_TASK)
    assert (response.status_code, response.json()) == (422, {"error": "cannot delete this file"})
    assert get_task(live_server, "a_writer")["version"] == 1


def test_etag_and_if_none_match(live_server: LiveServer) -> None:
    first = call(live_server, "GET", WRITER_TASK)
    etag = first.headers["ETag"]
    assert etag.startswith('"v1-')
    again = call(live_server, "GET", WRITER_TASK, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["ETag"] == etag
    weak = call(live_server, "GET", WRITER_TASK, headers={"If-None-Match": f'"x", W/{etag}'})
    assert weak.status_code == 304
    assert put_task(live_server, "a_writer", {"content": "changed"}).ok
    after = call(live_server, "GET", WRITER_TASK, headers={"If-None-Match": etag})
    assert after.status_code == 200
    assert after.headers["ETag"] != etag
    assert after.json()["content"] == "changed"


def test_any_text_round_trips_exactly(live_server: LiveServer) -> None:
    text = "nul\x00 crlf\r\n cr\r emoji 😀 sep\u2028 bom\ufeff <task>&amp;"
    assert put_task(live_server, "a_writer", {"content": text}).json()["content"] == text
    assert get_task(live_server, "a_writer")["content"] == text
    assert get_task(live_server, "a_writer")["hash"] == sha256_hex(text)


def test_a_lone_surrogate_is_refused_as_invalid_json(live_server: LiveServer) -> None:
    response = call(
        live_server,
        "PUT",
        WRITER_TASK,
        data=b'{"content": "\\ud800"}',
        headers={"Content-Type": "application/json"},
    )
    assert (response.status_code, response.json()) == (
        422,
        {"error": "request body is not valid JSON"},
    )
