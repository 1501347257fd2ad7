"""The reference server's PostgreSQL backend: a pool of psycopg 3 connections under the
same ``Transaction`` queries as SQLite.

``PgConnection`` takes the SQL text the SQLite backend runs (``sql_dialect`` translates
its placeholders), so every query is written once. Reads run in a ``REPEATABLE READ``
transaction (one snapshot, as SQLite's ``BEGIN`` gives); writes in ``READ COMMITTED``
with the rows they change locked by the write itself (``Transaction.save_task`` claims the
agent's row first), so concurrent saves on several processes queue on the row, not on a
process lock. Imported only for a ``postgresql://`` database: the embedded default never
loads psycopg.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import psycopg
import psycopg_pool

from app.server.db_records import DatabaseError
from app.server.pg_text import register_escaping
from app.server.sql_dialect import postgres_query

EVENTS_CHANNEL = "taskdesk_events"
"""The LISTEN/NOTIFY channel the org's change log, presence and token changes ring."""

POOL_SIZE = 16  # per process: the threadpool's handlers wait on the database, never more


def redacted(url: str) -> str:
    """The URL without a password, for messages."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "the PostgreSQL database"
    host = info.get("host", "localhost")
    port = f":{info['port']}" if info.get("port") else ""
    user = f"{info['user']}@" if info.get("user") else ""
    return f"postgresql://{user}{host}{port}/{info.get('dbname', '')}"


class PgConnection:
    """A psycopg connection that takes SQLite's SQL text (``?`` placeholders)."""

    dialect = "postgresql"

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.raw = conn

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> psycopg.Cursor[Any]:
        return self.raw.execute(postgres_query(sql), tuple(parameters))

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]], /) -> None:
        """One statement for many rows (psycopg pipelines them: one round trip per batch)."""
        with self.raw.cursor() as cursor:
            cursor.executemany(postgres_query(sql), [tuple(row) for row in rows])

    def run_ddl(self, script: str) -> None:
        """A DDL script in one call (PostgreSQL runs several statements when none has
        parameters)."""
        self.raw.execute(script.encode())


class PgServerDatabase:
    """``read()`` and ``write()`` transactions over a pool of connections to one database."""

    dialect = "postgresql"
    on_loop = False  # every statement is a round trip: the event loop makes none

    def __init__(self, url: str, *, pool_size: int = POOL_SIZE) -> None:
        self.url = url
        self.where = redacted(url)
        self._listeners: list[Callable[[], None]] = []
        self._listener_thread: threading.Thread | None = None
        self._closed = threading.Event()
        try:
            self._pool = psycopg_pool.ConnectionPool(
                url,
                min_size=1,
                max_size=pool_size,
                kwargs={"autocommit": True},
                configure=_configure,
                open=False,
                name="taskdesk",
            )
            self._pool.open(wait=True, timeout=10.0)
            self._migrate()
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            self._pool.close()
            raise DatabaseError(f"cannot open database {self.where}: {_reason(exc)}") from None
        except DatabaseError:
            self._pool.close()
            raise

    def _migrate(self) -> None:
        from app.server.migrations import migrate

        with self._transaction("BEGIN") as conn:
            migrate(conn, self.dialect, self.where)

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[PgConnection]:
        if self._closed.is_set():
            raise DatabaseError("the database is closed")
        with self._pool.connection() as conn:
            conn.execute(begin)
            try:
                yield PgConnection(conn)
            except BaseException:
                if not conn.closed:
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    @contextmanager
    def read(self) -> Iterator[Any]:
        """A consistent snapshot: every query sees the same committed state."""
        from app.server.database import Transaction

        with self._transaction("BEGIN ISOLATION LEVEL REPEATABLE READ") as conn:
            yield Transaction(conn)

    @contextmanager
    def point_read(self) -> Iterator[Any]:
        """A read of one statement (or of statements that need not agree): no BEGIN and no
        COMMIT, each statement its own snapshot on the autocommit connection. One round trip
        instead of three: the token lookup and the GET's version check, on every request."""
        from app.server.database import Transaction

        if self._closed.is_set():
            raise DatabaseError("the database is closed")
        with self._pool.connection() as conn:
            yield Transaction(PgConnection(conn))

    @contextmanager
    def write(self) -> Iterator[Any]:
        """One atomic write: committed when the block ends, rolled back when it raises."""
        from app.server.database import Transaction

        with self._transaction("BEGIN") as conn:
            yield Transaction(conn)

    def loop_read(self) -> AbstractContextManager[Any]:
        """Never on the event loop (``on_loop`` is False): a point read in the caller's thread."""
        return self.point_read()

    def write_now(self, writes: int = 1) -> None:
        """Never on the event loop: every statement is a round trip to the database server,
        which may be slow or far; the caller writes in a thread (``write``)."""

    @contextmanager
    def connection(self) -> Iterator[PgConnection]:
        """One connection outside any transaction (the migrations take their own)."""
        with self._pool.connection() as conn:
            yield PgConnection(conn)

    # ------------------------------------------------------------ wake-ups across processes

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` (on a thread of the database's) after any process commits an
        event, a presence or a token change: LISTEN on a connection of its own."""
        self._listeners.append(listener)
        if self._listener_thread is None:
            self._listener_thread = threading.Thread(
                target=self._listen, name="taskdesk-listen", daemon=True
            )
            self._listener_thread.start()

    def _listen(self) -> None:
        while not self._closed.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {EVENTS_CHANNEL}")
                    self._ring()  # anything committed while no one listened
                    while not self._closed.is_set():
                        for _ in conn.notifies(timeout=0.5, stop_after=1):
                            self._ring()
            except psycopg.Error:
                self._closed.wait(1.0)  # the server restarts: listen again soon

    def _ring(self) -> None:
        for listener in list(self._listeners):
            listener()

    def close(self) -> None:
        self._closed.set()
        self._pool.close()
        if self._listener_thread is not None:
            self._listener_thread.join(2.0)


def _configure(conn: psycopg.Connection[Any]) -> None:
    register_escaping(conn.adapters)


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
