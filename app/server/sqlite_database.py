"""The SQLite backend: a pool of connections to one file in WAL mode, and writes on it.

Every write runs in ``BEGIN IMMEDIATE`` under a process lock. A write that must not wait
(``write_now``, for the event loop) takes neither lock unless it is free at once, on a
connection of its own that never sleeps on SQLite's lock and never checkpoints in a commit:
its checkpoints run in a thread (``_checkpoint_soon``).
"""

from __future__ import annotations

import os
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from app.server.database import Transaction
from app.server.db_records import DatabaseError
from app.server.migrations import migrate

CHECKPOINT_EVERY = 100
"""Writes made at once between two checkpoints (in a thread): about SQLite's own 1,000 pages
of WAL for Tasks of a few KB, and a checkpoint of fewer pages costs little."""


class ServerDatabase:
    """A pool of connections to one SQLite file in WAL mode, handed out per transaction."""

    dialect = "sqlite"
    on_loop = True  # point reads and small writes (``write_now``) on the event loop

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.where = str(self.path)
        self._pool: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()
        # Taken to give a connection back or to close: none goes into the pool once closed.
        self._pool_lock = threading.Lock()
        # SQLite's own lock would also serialise writers, but a busy writer there waits in
        # sleeps; a process lock hands the write over at once and keeps the race tight.
        self._write_lock = threading.Lock()
        self._listeners: list[Callable[[], None]] = []
        self._closed = False
        self._now_conn: sqlite3.Connection | None = None  # write_now's, the event loop's
        self._writes_now = 0
        self._checkpointing = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if not self.path.exists():
                # It holds every token's digest: only its owner may read it. SQLite gives the
                # -wal and -shm files the mode of the database file.
                os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            conn = self._connect()
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("BEGIN IMMEDIATE")
            try:
                migrate(conn, self.dialect, self.where)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        except (OSError, sqlite3.Error) as exc:
            raise DatabaseError(f"cannot open database {self.path}: {exc}") from None
        self._pool.put(conn)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path, timeout=30.0, isolation_level=None, check_same_thread=False
        )
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        return conn

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        if self._closed:
            raise DatabaseError("the database is closed")
        try:
            conn = self._pool.get_nowait()
        except queue.Empty:
            conn = self._connect()
        try:
            yield conn
        finally:
            self._give_back(conn)

    def _give_back(self, conn: sqlite3.Connection) -> None:
        # A connection still in use when the database closed is closed here, by the thread
        # that used it: closing it under a running statement (from ``close``) crashes sqlite.
        with self._pool_lock:
            if not self._closed:
                self._pool.put(conn)
                return
        conn.close()

    @contextmanager
    def read(self) -> Iterator[Transaction]:
        """A consistent snapshot: every query sees the same committed state."""
        with self._connection() as conn:
            conn.execute("BEGIN")
            try:
                yield Transaction(conn)
            finally:
                conn.execute("COMMIT")

    @contextmanager
    def point_read(self) -> Iterator[Transaction]:
        """One statement's read, or a few that need no common snapshot: no BEGIN and COMMIT
        around it (the connection is in autocommit mode, so each statement reads a committed
        state of its own), which is a third of what a token lookup or a live stamp costs."""
        with self._connection() as conn:
            yield Transaction(conn)

    @contextmanager
    def loop_read(self) -> Iterator[Transaction]:
        """``point_read`` for the event loop's thread, on its own connection (``write_now``'s).
        A connection's page cache is dropped whenever another connection has committed, so on
        a pooled one the token lookup after each save read its pages again; the loop's own
        commits leave its cache as it is."""
        if self._closed:
            raise DatabaseError("the database is closed")
        yield Transaction(self._now_connection())

    @contextmanager
    def write(self) -> Iterator[Transaction]:
        """One atomic write: committed when the block ends, rolled back when it raises."""
        with self._write_lock, self._connection() as conn:
            conn.execute("BEGIN IMMEDIATE")
            with _committed(conn) as tx:
                yield tx
        self._changed()

    def write_now(self, writes: int = 1) -> AbstractContextManager[Transaction] | None:
        """``write()`` for the event loop, which must never wait: None when another write
        holds either lock (this process's or SQLite's, from ``taskdesk admin`` say): the
        caller asks again later or writes in a thread. Only the event loop's thread may call
        it (its connection is the loop's alone). ``writes``: how many saves the transaction
        gathers (``loop_writes``), counted towards the next checkpoint."""
        if self._closed or not self._write_lock.acquire(blocking=False):
            return None
        try:
            conn = self._now_connection()
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            self._write_lock.release()
            if exc.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY:
                return None
            raise
        except BaseException:
            self._write_lock.release()
            raise
        return self._writing_now(conn, writes)

    @contextmanager
    def _writing_now(self, conn: sqlite3.Connection, writes: int) -> Iterator[Transaction]:
        try:
            with _committed(conn) as tx:
                yield tx
        finally:
            self._write_lock.release()
        self._changed()
        before, self._writes_now = self._writes_now, self._writes_now + writes
        if before // CHECKPOINT_EVERY != self._writes_now // CHECKPOINT_EVERY:
            self._checkpoint_soon()

    def _now_connection(self) -> sqlite3.Connection:
        if self._now_conn is None:
            conn = self._connect()
            conn.execute("PRAGMA busy_timeout=0")  # busy is None at once, never a sleep
            conn.execute("PRAGMA wal_autocheckpoint=0")  # a checkpoint writes the file
            # A savepoint per gathered write (loop_writes) journals the pages it changes
            # again: in memory, not in a temporary file.
            conn.execute("PRAGMA temp_store=MEMORY")
            self._now_conn = conn
        return self._now_conn

    def _checkpoint_soon(self) -> None:
        """Move the WAL's pages into the file in a thread, one checkpoint at a time. PASSIVE:
        it never holds up a reader or a writer, and what it can't move waits for the next."""
        if self._checkpointing.locked():
            return

        def checkpoint() -> None:
            with self._checkpointing:
                try:
                    with self._connection() as conn:
                        conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except (sqlite3.Error, DatabaseError):
                    pass  # closed meanwhile, or busy: the next one moves those pages

        threading.Thread(target=checkpoint, name="wal-checkpoint", daemon=True).start()

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after each write this process commits (SQLite has one serving
        process; ``taskdesk admin`` in another is seen by the event stream's own checks)."""
        self._listeners.append(listener)

    def close(self) -> None:
        """Close the idle connections now; one a request thread still uses is closed when
        that thread gives it back (``_give_back``)."""
        with self._pool_lock:
            self._closed = True
            idle = []
            while True:
                try:
                    idle.append(self._pool.get_nowait())
                except queue.Empty:
                    break
        for conn in idle:
            conn.close()
        with self._write_lock:  # not while the event loop writes on it
            if self._now_conn is not None:
                self._now_conn.close()
                self._now_conn = None


@contextmanager
def _committed(conn: sqlite3.Connection) -> Iterator[Transaction]:
    """The transaction begun on ``conn``: committed when the block ends, rolled back when it
    raises."""
    try:
        yield Transaction(conn)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    try:
        conn.execute("COMMIT")
    except sqlite3.Error:
        # A COMMIT refused (a full disk) may leave the transaction open: end it, or the
        # connection goes back to the pool inside it and every later BEGIN fails.
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
