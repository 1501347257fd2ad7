"""task.md's answers kept per version: the same bytes as building them afresh, right across
server processes sharing one database, the revisions without their text (EXTENSION) and one
revision's text, and a legal 80 MB history served without a copy per reader."""

from __future__ import annotations

import hashlib
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
import requests
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.limits import MAX_REVISIONS, TASK_MAX_BYTES
from app.server import start_server
from app.server.sqlite_database import ServerDatabase
from app.server.task_answers import (
    EncodedTask,
    Piece,
    TaskAnswers,
    TaskView,
    encode_with_revisions,
)
from app.server.task_routes import task_body
from tests.live_server import WORKSPACE_BASIC, LiveServer, ServerFactory

TIMEOUT = 30.0
TASK = "/api/agents/a_scout/files/task.md"
REPO = Path(__file__).resolve().parents[2]

texts = st.text(st.characters(codec="utf-8"), max_size=40)
revision = st.fixed_dictionaries(
    {"version": st.integers(1, 2**40), "content": texts, "replaced_at": texts}
)


@settings(max_examples=200, deadline=None)
@given(
    head=st.dictionaries(st.sampled_from(["path", "content", "version"]), texts, max_size=3),
    revisions=st.lists(revision, max_size=5),
    tail=st.dictionaries(st.sampled_from(["hash", "seeded", "agent_id"]), texts, max_size=3),
)
def test_revisions_encoded_apart_give_the_bytes_of_the_whole(
    head: dict[str, Any], revisions: list[dict[str, Any]], tail: dict[str, Any]
) -> None:
    body = {**head, "revisions": revisions, **tail}
    pieces = [orjson.dumps(r) for r in revisions]
    encoded, spans = encode_with_revisions(body, pieces)
    assert encoded == orjson.dumps(body)
    assert [encoded[a:b] for a, b in spans] == pieces


@settings(max_examples=200, deadline=None)
@given(
    earlier=st.lists(revision, max_size=6),
    fresh=st.lists(revision, max_size=3),
    picks=st.lists(st.integers(0, 8), max_size=8),
)
def test_revisions_taken_from_an_earlier_answer_give_the_bytes_of_the_whole(
    earlier: list[dict[str, Any]], fresh: list[dict[str, Any]], picks: list[int]
) -> None:
    """A save's answer: some revisions re-used from the earlier answer's body as spans (side
    by side there or not, in any order), some encoded anew."""
    old_body, old_spans = encode_with_revisions(
        {"content": "old", "revisions": earlier}, [orjson.dumps(r) for r in earlier]
    )
    pool: list[tuple[dict[str, Any], Piece]] = [
        *zip(earlier, old_spans, strict=True),
        *((r, orjson.dumps(r)) for r in fresh),
    ]
    chosen = [pool[n] for n in picks if n < len(pool)]
    body = {"content": "new", "revisions": [r for r, _ in chosen], "hash": "h"}
    encoded, spans = encode_with_revisions(body, [p for _, p in chosen], old_body)
    assert encoded == orjson.dumps(body)
    assert [encoded[a:b] for a, b in spans] == [orjson.dumps(r) for r, _ in chosen]


def test_kept_answers_stay_within_their_bytes_newest_read_last_out() -> None:
    answers = TaskAnswers(max_bytes=350)
    for n in range(5):
        answers.keep(f"a{n}", TaskView.FULL, EncodedTask(1, "h", '"e"', b"x" * 100, {}))
        if n == 2:
            assert answers.current("a1", TaskView.FULL, (1, "h")) is not None  # read: kept
    assert answers.bytes_kept <= 350
    assert answers.current("a1", TaskView.FULL, (1, "h")) is not None
    assert answers.current("a4", TaskView.FULL, (1, "h")) is not None
    assert answers.current("a0", TaskView.FULL, (1, "h")) is None
    assert answers.current("a2", TaskView.FULL, (1, "h")) is None  # read least recently
    assert answers.current("a4", TaskView.FULL, (2, "h")) is None  # another version: not it


def _save(server: LiveServer, text: str, **params: str) -> dict[str, Any]:
    answer = requests.put(
        server.url + TASK,
        json={"content": text},
        headers=server.auth("ann"),
        params=params,
        timeout=TIMEOUT,
    )
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def _get(server: LiveServer, **params: str) -> requests.Response:
    answer = requests.get(
        server.url + TASK, headers=server.auth("mia"), params=params, timeout=TIMEOUT
    )
    assert answer.status_code == 200, answer.text
    return answer


def test_every_answer_is_the_one_built_afresh_from_the_database(live_server: LiveServer) -> None:
    for n in range(MAX_REVISIONS + 3):  # past the 50 kept: the oldest ones leave the answer
        saved = _save(live_server, f'Version {n}: be brief.\n\u0001"quoted" and ü 🎉\n')
        got = _get(live_server)
        assert got.json() == saved
    db = ServerDatabase(live_server.db_path)  # the file itself, beside the server
    with db.read() as tx:
        record = tx.task("a_scout")
        org_id = tx.meta("org_id")
    db.close()
    assert record is not None
    assert got.content == orjson.dumps(task_body(org_id, record))
    assert len(got.json()["revisions"]) == MAX_REVISIONS
    assert got.headers["ETag"] == f'"v{record.version}-{record.hash[:16]}"'


def test_a_save_through_another_server_process_is_seen_at_once(
    server_factory: ServerFactory, live_server: LiveServer
) -> None:
    other = server_factory(db_path=live_server.db_path)
    first = _get(live_server).json()  # kept by the first server
    saved = _save(other, "Saved through the other server.\n")
    assert saved["version"] == first["version"] + 1
    seen = _get(live_server).json()
    assert seen == saved
    conditional = requests.get(
        live_server.url + TASK,
        headers={**live_server.auth("mia"), "If-None-Match": _get(other).headers["ETag"]},
        timeout=TIMEOUT,
    )
    assert conditional.status_code == 304


def test_revisions_without_text_and_each_text_on_its_own(live_server: LiveServer) -> None:
    for n in range(4):
        _save(live_server, f"Text {n}\n")
    whole = _get(live_server).json()
    summary = _get(live_server, revisions="summary")
    brief = summary.json()
    assert summary.headers["ETag"] == _get(live_server).headers["ETag"]
    assert {k: v for k, v in brief.items() if k != "revisions"} == {
        k: v for k, v in whole.items() if k != "revisions"
    }
    assert [r["version"] for r in brief["revisions"]] == [r["version"] for r in whole["revisions"]]
    for short, full in zip(brief["revisions"], whole["revisions"], strict=True):
        assert "content" not in short
        assert short == {
            **{k: v for k, v in full.items() if k != "content"},
            "content_hash": hashlib.sha256(full["content"].encode()).hexdigest(),
        }
        one = requests.get(
            f"{live_server.url}{TASK}/revisions/{short['version']}",
            headers=live_server.auth("scout"),  # an agent reads its Task's history too
            timeout=TIMEOUT,
        )
        assert one.status_code == 200
        assert one.json() == full
    saved = _save(live_server, "And once more.\n", revisions="summary")
    assert all("content" not in r for r in saved["revisions"])
    assert saved["version"] == whole["version"] + 1


@pytest.mark.parametrize("version", ["999", "0", "-1", "1.0", "x", "9" * 40])
def test_a_version_not_kept_is_no_such_revision(live_server: LiveServer, version: str) -> None:
    answer = requests.get(
        f"{live_server.url}{TASK}/revisions/{version}",
        headers=live_server.auth("ann"),
        timeout=TIMEOUT,
    )
    assert (answer.status_code, answer.json()) == (404, {"error": "no such revision"})


def test_the_revision_of_a_missing_agent_is_no_such_agent(live_server: LiveServer) -> None:
    answer = requests.get(
        f"{live_server.url}/api/agents/a_missing/files/task.md/revisions/1",
        headers=live_server.auth("ann"),
        timeout=TIMEOUT,
    )
    assert (answer.status_code, answer.json()) == (404, {"error": "no such agent"})


def test_a_spec_only_server_ignores_the_summary(tmp_path: Path) -> None:
    with start_server(WORKSPACE_BASIC, tmp_path / "spec.sqlite3", extensions=False) as server:
        auth = {"Authorization": "Bearer ann-secret"}
        answer = requests.get(
            server.url + TASK, headers=auth, params={"revisions": "summary"}, timeout=TIMEOUT
        )
    assert answer.status_code == 200
    assert "ETag" not in answer.headers
    assert answer.json()["revisions"]
    assert all("content" in r and "replaced_by_id" not in r for r in answer.json()["revisions"])


def _rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_the_largest_legal_history_is_served_without_a_copy_per_reader(
    tmp_path: Path, workspace_basic: dict[str, Any]
) -> None:
    """52 saves of 256 KB of control characters: the GET is ~80 MB of JSON. Eight readers
    that read it slowly cost the server a little each, not a copy of the answer each."""
    (tmp_path / "ws.json").write_bytes(orjson.dumps(workspace_basic))
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app",
            "serve",
            "--workspace",
            str(tmp_path / "ws.json"),
            "--db",
            str(tmp_path / "db.sqlite3"),
            "--port",
            "0",
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip().removeprefix("taskdesk: serving ")
        auth = {"Authorization": "Bearer ann-secret"}
        with requests.Session() as session:
            for n in range(MAX_REVISIONS + 2):
                text = chr(1 + n % 7) * TASK_MAX_BYTES  # \u0001 to \u0007: six bytes each
                saved = session.put(
                    url + TASK,
                    json={"content": text},
                    params={"revisions": "summary"},
                    headers=auth,
                    timeout=TIMEOUT,
                )
                assert saved.status_code == 200
            whole = session.get(url + TASK, headers=auth, timeout=120)
        assert len(whole.content) > 80_000_000
        assert len(whole.json()["revisions"]) == MAX_REVISIONS
        del whole
        host, port = url.removeprefix("http://").split(":")
        before = _rss_bytes(server.pid)
        readers = []
        for _ in range(8):
            reader = socket.create_connection((host, int(port)), timeout=TIMEOUT)
            reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)
            head = f"GET {TASK} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ann-secret\r\n\r\n"
            reader.sendall(head.encode())
            readers.append(reader)
        for reader in readers:  # each well into its answer, the rest waiting on it
            got = 0
            while got < 4 * 1024 * 1024:
                got += len(reader.recv(1024 * 1024))
        grown = _rss_bytes(server.pid) - before
        for reader in readers:
            reader.close()
        # Before: each reader held its own ~80 MB copy (8 readers took it past 1 GB).
        assert grown < 80_000_000, f"the server grew {grown:,} bytes for 8 slow readers"
    finally:
        server.terminate()
        server.wait(timeout=30)
        if server.stdout is not None:
            server.stdout.close()
    assert os.path.exists(tmp_path / "db.sqlite3")
