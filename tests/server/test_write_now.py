"""Saves made on the event loop: only when nothing holds the write, the same answer as a save
in a thread, and their WAL checkpointed off the loop; on PostgreSQL, nothing on the loop."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests
from starlette.applications import Starlette

from app.server import start_server
from app.server.database import DatabaseError
from app.server.sqlite_database import CHECKPOINT_EVERY, ServerDatabase
from app.server.task_saves import SAVE_AT_ONCE_BYTES
from tests.live_server import WORKSPACE_BASIC
from tests.postgres_cluster import PostgresCluster

TASK = "/api/agents/a_scout/files/task.md"
TIMEOUT = 30.0


def _operator() -> requests.Session:
    session = requests.Session()
    session.headers["Authorization"] = "Bearer ann-secret"
    return session


def test_no_write_now_while_another_thread_writes(tmp_path: Path) -> None:
    db = ServerDatabase(tmp_path / "org.sqlite3")
    inside, leave = threading.Event(), threading.Event()

    def write() -> None:
        with db.write():
            inside.set()
            leave.wait(TIMEOUT)

    with ThreadPoolExecutor(1) as pool:
        held = pool.submit(write)
        assert inside.wait(TIMEOUT)
        assert db.write_now() is None
        leave.set()
        held.result(TIMEOUT)
    writing = db.write_now()
    assert writing is not None
    with writing as tx:
        tx.conn.execute("INSERT INTO meta (key, value) VALUES ('now', 'yes')")
    with db.read() as tx:
        assert tx.meta("now") == "yes"
    db.close()


def test_no_write_now_while_another_process_holds_sqlites_lock(tmp_path: Path) -> None:
    """``taskdesk admin`` in another process: SQLite's own lock, which write_now never
    sleeps on (the pool's connections would, for 30 s)."""
    db = ServerDatabase(tmp_path / "org.sqlite3")
    other = sqlite3.connect(tmp_path / "org.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    asked = time.monotonic()
    assert db.write_now() is None
    assert time.monotonic() - asked < 1.0  # told at once, not after a busy wait
    other.execute("ROLLBACK")
    writing = db.write_now()
    assert writing is not None
    with writing:
        pass
    other.close()
    db.close()


def test_a_write_now_that_raises_is_rolled_back_and_frees_the_write(tmp_path: Path) -> None:
    db = ServerDatabase(tmp_path / "org.sqlite3")
    writing = db.write_now()
    assert writing is not None
    with pytest.raises(ZeroDivisionError), writing as tx:
        tx.conn.execute("INSERT INTO meta (key, value) VALUES ('lost', 'yes')")
        raise ZeroDivisionError
    with db.write() as tx:  # the lock was given back
        assert tx.conn.execute("SELECT value FROM meta WHERE key = 'lost'").fetchone() is None
    db.close()
    assert db.write_now() is None
    with pytest.raises(DatabaseError), db.write():
        pass


def test_writes_now_are_checkpointed_into_the_file(tmp_path: Path) -> None:
    """The event loop's connection never checkpoints in a commit; a thread does, every
    CHECKPOINT_EVERY writes. Read without the WAL, the file itself has them."""
    path = tmp_path / "org.sqlite3"
    db = ServerDatabase(path)
    for n in range(CHECKPOINT_EVERY):
        writing = db.write_now()
        assert writing is not None
        with writing as tx:
            tx.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('n', ?)", (str(n),))
    for thread in threading.enumerate():
        if thread.name == "wal-checkpoint":
            thread.join(TIMEOUT)
    in_file = sqlite3.connect(f"file:{path}?immutable=1", uri=True)  # the WAL unread
    assert in_file.execute("SELECT value FROM meta WHERE key = 'n'").fetchone() == (
        str(CHECKPOINT_EVERY - 1),
    )
    in_file.close()
    db.close()


def test_a_save_on_the_loop_answers_what_a_fresh_server_answers(tmp_path: Path) -> None:
    """The answer kept by a save on the loop is byte for byte the one a server that has kept
    nothing builds from the database; and a save too big for the loop, made in a thread."""
    session = _operator()
    small = "# Scout\n\nA save small enough for the loop.\n"
    big = "# Scout\n\n" + "A line of a Task too big for the loop.\n" * (SAVE_AT_ONCE_BYTES // 30)
    assert len(big.encode()) > SAVE_AT_ONCE_BYTES
    answers = []
    with start_server(WORKSPACE_BASIC, tmp_path / "db.sqlite3") as handle:
        for text in (small, big, small + "Once more.\n"):
            put = session.put(handle.url + TASK, json={"content": text}, timeout=TIMEOUT)
            assert put.status_code == 200, put.text
            assert put.json()["content"] == text
            answers.append(put.content)
    with start_server(WORKSPACE_BASIC, tmp_path / "db.sqlite3") as handle:
        fresh = session.get(handle.url + TASK, timeout=TIMEOUT)
    assert fresh.content == answers[-1]
    assert [r["content"] for r in fresh.json()["revisions"][:2]] == [big, small]


def test_a_save_waits_in_a_thread_while_sqlite_is_locked_and_reads_go_on(
    tmp_path: Path,
) -> None:
    """Another process holds the write: the save waits for it off the loop, so a read of the
    same server is answered meanwhile, and the save lands once the lock is let go."""
    path = tmp_path / "db.sqlite3"
    session, reader = _operator(), _operator()
    with start_server(WORKSPACE_BASIC, path) as handle:
        before = reader.get(handle.url + TASK, timeout=TIMEOUT).json()["version"]
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        with ThreadPoolExecutor(1) as pool:
            saving = pool.submit(
                session.put, handle.url + TASK, json={"content": "Saved late.\n"}, timeout=TIMEOUT
            )
            read = reader.get(handle.url + TASK, timeout=TIMEOUT)
            assert read.status_code == 200 and read.json()["version"] == before
            assert not saving.done()
            other.execute("ROLLBACK")
            saved = saving.result(TIMEOUT)
        other.close()
    assert saved.status_code == 200, saved.text
    assert saved.json()["version"] == before + 1


def test_on_postgresql_the_event_loop_makes_no_round_trip(postgres: PostgresCluster) -> None:
    """Every statement on PostgreSQL crosses the network: the token, the GET's kept answer,
    the PUT's 404 and its save are read and written in threads, never on the event loop,
    which a slow database server would otherwise stall for every request."""
    on_loop: list[str] = []

    def watch(app: Starlette) -> None:
        db = app.state.db
        for name in ("point_read", "loop_read", "read", "write"):
            made = getattr(db, name)

            def watched(made: Callable[[], Any] = made, name: str = name) -> Any:
                try:
                    asyncio.get_running_loop()
                    on_loop.append(name)
                except RuntimeError:
                    pass  # a thread's
                return made()

            setattr(db, name, watched)

    session = _operator()
    with start_server(WORKSPACE_BASIC, postgres.new_schema(), configure=watch) as handle:
        for text in ("One.\n", "Two.\n"):
            assert session.put(handle.url + TASK, json={"content": text}, timeout=TIMEOUT).ok
        for _ in range(2):  # built, then kept
            read = session.get(handle.url + TASK, timeout=TIMEOUT)
            assert read.status_code == 200 and read.json()["content"] == "Two.\n"
        again = session.get(
            handle.url + TASK, headers={"If-None-Match": read.headers["ETag"]}, timeout=TIMEOUT
        )
        assert again.status_code == 304
        missing = session.put(
            handle.url + "/api/agents/a_nobody/files/task.md", json={"content": 1}, timeout=TIMEOUT
        )
        assert missing.status_code == 404  # the unknown agent before the bad body, as on SQLite
    assert on_loop == []
