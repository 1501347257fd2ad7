"""The server a team shares: several worker processes over one PostgreSQL, tokens that
never sit in a database in plain text, `taskdesk admin` while it serves, and migrations.

Workers are real processes (``taskdesk serve --workers N``) on a real PostgreSQL that the
run starts itself (``postgres``); nothing here is mocked.
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from app.core.models import sha256_hex
from app.server.database import DatabaseError
from app.server.migrations import LATEST
from app.server.sqlite_database import ServerDatabase
from tests.live_server import WORKSPACE_BASIC, ServerFactory
from tests.postgres_cluster import PostgresCluster
from tests.server.event_stream import Subscriber

REPO = Path(__file__).resolve().parents[2]
SERVING = re.compile(r"taskdesk: serving (http://127\.0\.0\.1:\d+)\n\Z")
TIMEOUT = 15.0
TOKENS = ("ann-secret", "bob-secret", "mia-secret", "scout-secret", "writer-secret")
ANN = {"Authorization": "Bearer ann-secret"}
WRITER = "/api/agents/a_writer/files/task.md"


class Workers:
    """``taskdesk serve --workers N`` on a database, stopped with SIGTERM at the end."""

    def __init__(self, db: str, count: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app", "serve", "--workspace", str(WORKSPACE_BASIC),
             "--db", db, "--workers", str(count), "--port", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO,
        )  # fmt: skip
        assert self.process.stdout is not None
        line = self.process.stdout.readline().decode()
        found = SERVING.match(line)
        assert found, (line, self.process.stderr.read().decode() if self.process.stderr else "")
        self.url = found.group(1)
        self.db = db
        # Every worker answers before the test starts: each has its own pid.
        self.pids = self.wait_for_pids(count)

    def wait_for_pids(self, count: int, timeout: float = 30.0) -> set[int]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            children = _children(self.process.pid)
            if len(children) >= count and all(self._answers() for _ in range(4)):
                return children
            time.sleep(0.1)  # the workers start as processes: nothing to wait on but them
        raise AssertionError(f"{count} workers did not start")

    def _answers(self) -> bool:
        try:
            return requests.get(self.url + "/api/me", headers=ANN, timeout=TIMEOUT).ok
        except requests.RequestException:
            return False

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(30)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            for stream in (self.process.stdout, self.process.stderr):
                if stream is not None:
                    stream.close()


def _children(pid: int) -> set[int]:
    """The worker processes of the server ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) != pid:
                continue
            try:  # a worker, not multiprocessing's resource tracker
                if b"spawn_main" in (entry / "cmdline").read_bytes():
                    found.add(int(entry.name))
            except OSError:
                continue
    return found


@pytest.fixture
def team_db(postgres: PostgresCluster) -> str:
    return postgres.new_schema()


@pytest.fixture
def workers(team_db: str) -> Iterator[Workers]:
    served = Workers(team_db, 2)
    yield served
    served.stop()


def _admin(db: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "app", "admin", "--db", db, *args],
        capture_output=True, cwd=REPO, timeout=60, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def _race(url: str, expected: int, round_no: int, clients: int) -> list[requests.Response]:
    barrier = threading.Barrier(clients)
    results: list[requests.Response | BaseException] = [ValueError("not run")] * clients

    def save(i: int) -> None:
        try:
            with requests.Session() as session:
                barrier.wait(timeout=TIMEOUT)
                results[i] = session.put(
                    url + WRITER,
                    json={"content": f"round {round_no} client {i}", "expected_version": expected},
                    headers=ANN,
                    timeout=TIMEOUT,
                )
        except BaseException as exc:  # reported below
            results[i] = exc

    threads = [threading.Thread(target=save, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT * 2)
    answers = [r for r in results if isinstance(r, requests.Response)]
    assert len(answers) == clients, [r for r in results if not isinstance(r, requests.Response)]
    return answers


def _rounds(url: str, rounds: int, clients: int) -> None:
    live = requests.get(url + WRITER, headers=ANN, timeout=TIMEOUT).json()
    version, winners = live["version"], []
    for round_no in range(rounds):
        answers = _race(url, version, round_no, clients)
        statuses = Counter(a.status_code for a in answers)
        assert statuses == {200: 1, 409: clients - 1}, statuses
        won = next(a for a in answers if a.status_code == 200).json()
        assert won["version"] == version + 1
        assert all(a.json()["version"] == version + 1 for a in answers if a.status_code == 409)
        winners.append(won["content"])
        version += 1
    final = requests.get(url + WRITER, headers=ANN, timeout=TIMEOUT).json()
    assert final["version"] == version and final["content"] == winners[-1]
    kept = [r["content"] for r in final["revisions"]][: len(winners) - 1]
    assert kept == winners[-2::-1][: len(kept)]  # every acknowledged save is a revision


def test_two_workers_race_sixteen_writers_one_winner_per_version(workers: Workers) -> None:
    assert len(workers.pids) == 2
    _rounds(workers.url, rounds=4, clients=16)


@pytest.mark.slow
def test_four_workers_sixteen_writers_twenty_rounds(team_db: str) -> None:
    served = Workers(team_db, 4)
    try:
        _rounds(served.url, rounds=20, clients=16)
    finally:
        served.stop()


@pytest.mark.slow
def test_kill_9_of_a_worker_under_load_loses_no_acknowledged_save(workers: Workers) -> None:
    acknowledged: list[str] = []
    stop = threading.Event()

    def writer(n: int) -> None:
        with requests.Session() as session:
            i = 0
            while not stop.is_set():
                text = f"writer {n} save {i}"
                try:
                    answer = session.put(
                        workers.url + WRITER, json={"content": text}, headers=ANN, timeout=TIMEOUT
                    )
                except requests.RequestException:
                    continue  # its worker was killed mid-answer: not acknowledged
                if answer.status_code == 200:
                    acknowledged.append(text)
                i += 1

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    time.sleep(1.0)  # load before the kill (a duration of load, not a wait for a result)
    victim = sorted(workers.pids)[0]
    os.kill(victim, signal.SIGKILL)
    time.sleep(1.5)  # the other worker serves meanwhile, and the dead one is started again
    stop.set()
    for thread in threads:
        thread.join(TIMEOUT)
    assert acknowledged
    # Every acknowledged save is in the file change log, by the hash of its text.
    hashes = {
        row[0]
        for row in _rows(
            workers.db,
            "SELECT content_hash FROM file_changes WHERE display_path LIKE ?",
            ("%a_writer/task.md",),
        )
    }
    lost = [text for text in acknowledged if sha256_hex(text) not in hashes]
    assert not lost, lost[:5]
    live = requests.get(workers.url + WRITER, headers=ANN, timeout=TIMEOUT).json()
    assert live["content"] in acknowledged  # the last save standing was acknowledged
    assert len(workers.wait_for_pids(2)) >= 2  # the killed worker was started again


def _rows(url: str, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    import psycopg

    from app.server.sql_dialect import postgres_query

    with psycopg.connect(url, autocommit=True) as conn:
        return [tuple(r) for r in conn.execute(postgres_query(sql), params)]


def test_a_save_through_one_worker_reaches_subscribers_of_every_worker(workers: Workers) -> None:
    # Enough subscribers that the kernel hands some to each worker.
    subscribers = [Subscriber(workers.url, "bob-secret") for _ in range(6)]
    try:
        assert all(s.status == 200 for s in subscribers)
        answered = []
        for text in ("first", "second"):
            done = requests.put(
                workers.url + WRITER, json={"content": text}, headers=ANN, timeout=TIMEOUT
            )
            assert done.status_code == 200
            answered.append((done.json()["version"], time.monotonic()))
        for subscriber in subscribers:
            for version, at in answered:
                event = subscriber.next_event("task_saved", timeout=5.0)
                assert event.data["version"] == version
                assert event.received - at < 1.0
    finally:
        for subscriber in subscribers:
            subscriber.close()


def test_admin_adds_rotates_and_revokes_while_two_workers_serve(workers: Workers) -> None:
    added = _admin(workers.db, "add-person", "u_bo", "Bo", "--type", "operator")
    token = added.strip().rsplit(" ", 1)[1]
    bo = {"Authorization": f"Bearer {token}"}
    for _ in range(6):  # every worker knows Bo at once
        assert (
            requests.get(workers.url + "/api/me", headers=bo, timeout=TIMEOUT).json()["name"]
            == "Bo"
        )
    stream = Subscriber(workers.url, token)
    try:
        rotated = _admin(workers.db, "rotate", "u_bo").strip().rsplit(" ", 1)[1]
        assert stream.next_event("closed", timeout=5.0).name == "closed"  # its stream ends
        for _ in range(6):
            assert (
                requests.get(workers.url + "/api/me", headers=bo, timeout=TIMEOUT).status_code
                == 401
            )
        new = {"Authorization": f"Bearer {rotated}"}
        assert requests.get(workers.url + "/api/me", headers=new, timeout=TIMEOUT).ok
        _admin(workers.db, "revoke", "u_bo")
        for _ in range(6):
            assert (
                requests.get(workers.url + "/api/me", headers=new, timeout=TIMEOUT).status_code
                == 401
            )
    finally:
        stream.close()
    listed = _admin(workers.db, "list")
    assert "u_bo\tBo\toperator\trevoked" in listed.splitlines()
    assert token not in listed and rotated not in listed


def test_no_token_is_in_the_postgresql_dump(workers: Workers, postgres: PostgresCluster) -> None:
    token = _admin(workers.db, "add-person", "u_cy", "Cy").strip().rsplit(" ", 1)[1]
    dump = postgres.dump(workers.db)
    assert b"u_cy" in dump  # the dump is of this database
    for secret in (*TOKENS, token):
        assert secret.encode() not in dump


def test_no_token_is_in_the_sqlite_file(server_factory: ServerFactory) -> None:
    server = server_factory()
    assert isinstance(server.db_path, Path)
    token = _admin(str(server.db_path), "add-person", "u_cy", "Cy").strip().rsplit(" ", 1)[1]
    assert requests.get(server.url + "/api/me", headers={"Authorization": f"Bearer {token}"},
                        timeout=TIMEOUT).ok  # fmt: skip
    server.stop()
    stored = b"".join(p.read_bytes() for p in server.db_path.parent.glob(server.db_path.name + "*"))
    for secret in (*TOKENS, token):
        assert secret.encode() not in stored


def test_sqlite_refuses_more_than_one_worker(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app", "serve", "--workspace", str(WORKSPACE_BASIC), "--db",
         str(tmp_path / "one.sqlite3"), "--workers", "2", "--port", "0"],
        capture_output=True, cwd=REPO, timeout=60, text=True,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == (
        "taskdesk: --workers above 1 needs a PostgreSQL database (--db postgresql://…): a "
        "SQLite file is written by one process\n"
    )


# ---------------------------------------------------------------- migrations

OLD_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE guilds (id TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE people (id TEXT PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE);
CREATE TABLE agents (id TEXT PRIMARY KEY, name TEXT NOT NULL,
    guild_id TEXT NOT NULL REFERENCES guilds(id), token TEXT UNIQUE, task TEXT NOT NULL,
    task_version INTEGER NOT NULL, task_hash TEXT NOT NULL, task_updated_at TEXT NOT NULL,
    task_updated_by_type TEXT NOT NULL, task_updated_by_id TEXT NOT NULL,
    task_updated_by_name TEXT NOT NULL);
CREATE TABLE runs (id TEXT PRIMARY KEY, agent_id TEXT NOT NULL REFERENCES agents(id),
    created_at TEXT NOT NULL, created_by_id TEXT NOT NULL, system_prompt TEXT NOT NULL,
    task_source TEXT NOT NULL);
INSERT INTO meta VALUES ('org_id', 'o_acme'), ('org_name', 'Acme');
INSERT INTO guilds VALUES ('guild_ops', 'Operations');
INSERT INTO people VALUES ('u_ann', 'Ann', 'operator', 'ann-old-secret');
INSERT INTO agents VALUES ('a_scout', 'Scout', 'guild_ops', 'scout-old-secret', 'Old.', 1,
    'h', '2025-01-01T00:00:00.000Z', 'operator', 'u_ann', 'Ann');
INSERT INTO runs VALUES ('run_1', 'a_scout', '2025-01-01T00:00:00.000Z', 'u_ann', 'p', '{}');
INSERT INTO runs VALUES ('run_2', 'a_scout', '2025-01-01T00:00:00.000Z', 'u_ann', 'p', '{}');
"""
"""A server database as Taskdesk made it before the schema steps were numbered."""


def test_an_older_database_is_upgraded_and_its_tokens_hashed(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.executescript(OLD_SCHEMA)
    db = ServerDatabase(path)
    try:
        with db.read() as tx:
            assert tx.caller_for_token("ann-old-secret") is not None  # still signs in
            assert tx.caller_for_token("scout-old-secret") is not None
            versions = [r[0] for r in tx.conn.execute("SELECT version FROM schema_migrations")]
            assert versions == list(range(1, LATEST + 1))
            seq = [r[0] for r in tx.conn.execute("SELECT seq FROM runs ORDER BY id")]
            assert seq == [1, 2]  # the old runs keep their order
    finally:
        db.close()
    assert b"ann-old-secret" not in path.read_bytes()
    ServerDatabase(path).close()  # opened again: nothing left to do, nothing hashed twice
    db = ServerDatabase(path)
    try:
        with db.read() as tx:
            assert tx.caller_for_token("ann-old-secret") is not None
    finally:
        db.close()


def test_a_newer_database_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    ServerDatabase(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO schema_migrations VALUES (?, 'from the future', 'x')", (LATEST + 1,)
        )
    with pytest.raises(DatabaseError) as refused:
        ServerDatabase(path)
    assert str(refused.value) == (
        f"database {path} was made by a newer Taskdesk (schema version {LATEST + 1}; this one"
        f" knows up to {LATEST}): upgrade Taskdesk to use it"
    )


def test_the_embedded_default_never_loads_psycopg() -> None:
    probe = (
        "import sys, app.server.app_factory, app.server.running, app.cli, app.connect.embedded;"
        "print([m for m in sys.modules if m.startswith('psycopg')])"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
