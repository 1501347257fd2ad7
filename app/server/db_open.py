"""Which database the server opens: a SQLite file (the default) or a PostgreSQL URL."""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

POSTGRES_SCHEMES = ("postgresql://", "postgres://")

DatabaseTarget = Path | str
"""A SQLite file's path, or a ``postgresql://user@host/db`` URL."""


class Database(Protocol):
    """What the server needs of a database, on either backend."""

    dialect: str
    # A local file: a point read or a small write costs microseconds, so the event loop may
    # make it itself. False (PostgreSQL): every statement is a round trip, made in a thread.
    on_loop: bool
    where: str  # named in messages (a PostgreSQL URL without its password)

    def read(self) -> AbstractContextManager[Any]: ...  # a Transaction
    def point_read(self) -> AbstractContextManager[Any]: ...  # one statement, no snapshot
    # A point read on the event loop's thread (only where ``on_loop``).
    def loop_read(self) -> AbstractContextManager[Any]: ...
    def write(self) -> AbstractContextManager[Any]: ...  # a Transaction
    # A write for the event loop: None when it would have to wait (then write in a thread).
    def write_now(self, writes: int = 1) -> AbstractContextManager[Any] | None: ...
    def on_change(self, listener: Any) -> None: ...
    def close(self) -> None: ...


def is_postgres(target: DatabaseTarget) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def database_target(value: str | Path) -> DatabaseTarget:
    """A command line's or ``TASKDESK_DB``'s value as a target: a URL stays a string."""
    text = str(value)
    return text if is_postgres(text) else Path(text).expanduser()


def open_server_database(target: DatabaseTarget) -> Database:
    """Open (creating or upgrading its schema) the database; DatabaseError in one line."""
    if is_postgres(target):
        assert isinstance(target, str)
        from app.server.pg_database import PgServerDatabase  # psycopg only for PostgreSQL

        return PgServerDatabase(target)
    from app.server.sqlite_database import ServerDatabase

    return ServerDatabase(Path(target))
