"""The SQLite file under the store: durable settings, a connection per thread, errors mapped."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from app.store.errors import StoreError, StoreProblem, problem_of, store_error
from app.store.schema import SchemaTooNewError, ensure_schema

BUSY_TIMEOUT_MS = 5000
"""How long a write waits for another Taskdesk window's write to finish before giving up."""


class _ThreadConnection:
    """One thread's connection, closed when the thread ends and its thread-locals go.

    Worker pools retire idle threads and start new ones; without this every retired thread
    would leave an open file handle behind until the store is closed. ``in_use`` is held
    while the thread reads or writes: closing a connection under a running statement
    crashes the process (sqlite3 frees what the statement still uses), so close() waits.
    """

    __slots__ = ("__weakref__", "conn", "in_use")

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.in_use = threading.RLock()  # re-entrant: a read may run inside a write

    def __del__(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()


class StoreDatabase:
    """Opens the file once to check it, then hands each thread its own connection.

    The app writes from one worker lane and may read from another thread; SQLite
    connections must not be shared across threads mid-statement, and WAL lets readers run
    beside a writer. A second Taskdesk process is just another connection: BEGIN IMMEDIATE
    plus the busy timeout serialise writers, so the last writer wins and nothing tears.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: weakref.WeakSet[_ThreadConnection] = weakref.WeakSet()
        self._closed = False
        self._prepare_file()
        with self.reading("open the local store"):
            pass  # opens this thread's connection now, so a bad folder is reported at once

    def _prepare_file(self) -> None:
        # SQLite says only "unable to open database file" for a missing folder, a read-only
        # folder or a path that is a folder; creating the file ourselves gets the real errno.
        action = "open the local store"
        try:
            # Drafts are the operator's own: the file 0600 in a 0700 folder.
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            os.close(fd)
        except OSError as exc:
            raise store_error(action, problem_of(exc), self.path) from None

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path,
            timeout=BUSY_TIMEOUT_MS / 1000,
            isolation_level=None,  # transactions are explicit: BEGIN IMMEDIATE … COMMIT
            check_same_thread=False,  # each thread uses its own; close() may run elsewhere
        )
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            # WAL: readers never block the writer and a killed process leaves the file
            # consistent. synchronous=FULL: a commit is on disk before save_draft returns,
            # so even a power cut keeps the draft; the fsync costs a few ms on the worker.
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise sqlite3.OperationalError("WAL not available")
            conn.execute("PRAGMA synchronous = FULL")
            ensure_schema(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _connection(self) -> _ThreadConnection:
        held: _ThreadConnection | None = getattr(self._local, "held", None)
        if held is not None:
            return held
        with self._lock:
            if self._closed:
                raise sqlite3.ProgrammingError("closed")
        held = _ThreadConnection(self._connect())
        with self._lock:
            self._connections.add(held)
        self._local.held = held
        return held

    @contextmanager
    def _using(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection, kept from close() until the caller is done with it."""
        held = self._connection()
        with held.in_use:
            yield held.conn

    @contextmanager
    def reading(self, action: str) -> Iterator[sqlite3.Connection]:
        """A connection for reads (each statement sees a consistent snapshot)."""
        try:
            with self._using() as conn:
                yield conn
        except StoreError:
            raise
        except SchemaTooNewError:
            raise store_error(action, StoreProblem.TOO_NEW, self.path) from None
        except (sqlite3.Error, OSError) as exc:
            raise store_error(action, problem_of(exc), self.path) from None

    @contextmanager
    def writing(self, action: str, *, still_safe: str = "") -> Iterator[sqlite3.Connection]:
        """One atomic write transaction: all of it lands, or none of it."""
        try:
            with self._using() as conn:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    yield conn
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        # SQLite rolls back by itself on close; the first error is the one
                        # to report
                        with contextlib.suppress(sqlite3.Error):
                            conn.execute("ROLLBACK")
                    raise
        except StoreError:
            raise
        except SchemaTooNewError:
            raise store_error(action, StoreProblem.TOO_NEW, self.path) from None
        except (sqlite3.Error, OSError) as exc:
            raise store_error(action, problem_of(exc), self.path, still_safe=still_safe) from None

    def close(self) -> None:
        """Close every thread's connection, each once its thread is done with it; later
        calls raise StoreError (closed)."""
        with self._lock:
            self._closed = True
            held = list(self._connections)
        for one in held:
            with one.in_use:
                one.conn.close()
        self._local = threading.local()
