"""Closing the server's database while a request's thread still reads leaves that read whole."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from app.server.database import DatabaseError
from app.server.sqlite_database import ServerDatabase


def test_a_connection_in_use_when_the_database_closes_is_closed_when_given_back(
    tmp_path: Path,
) -> None:
    db = ServerDatabase(tmp_path / "org.sqlite3")
    with db.read() as tx:
        db.close()
        # Closing it under this read would free what the read runs on (a crash in sqlite).
        assert tx.conn.execute("SELECT 1").fetchone() == (1,)
    with pytest.raises(sqlite3.ProgrammingError):
        tx.conn.execute("SELECT 1")
    with pytest.raises(DatabaseError), db.read():
        pass


def test_closing_during_reads_on_other_threads_ends_every_read_and_closes_every_connection(
    tmp_path: Path,
) -> None:
    db = ServerDatabase(tmp_path / "org.sqlite3")
    reading = threading.Barrier(5)
    results: list[object] = []

    def read() -> None:
        with db.read() as tx:
            reading.wait()
            # A long statement, running while the database is closed.
            row = tx.conn.execute(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000)"
                " SELECT count(*) FROM n"
            ).fetchone()
            results.append(row)

    threads = [threading.Thread(target=read) for _ in range(4)]
    for thread in threads:
        thread.start()
    reading.wait()
    db.close()
    for thread in threads:
        thread.join(timeout=30)
    assert results == [(200000,)] * 4
