"""``taskdesk serve``: run the reference server on a workspace file.

``taskdesk serve --workspace FILE [--db FILE|URL] [--workers N] [--host H] [--port N]
[--spec-only] [--check]``
Runs the reference server (default 127.0.0.1:8765). ``--db postgresql://user@host/db`` (or
``TASKDESK_DB``) serves a team from PostgreSQL, with ``--workers N`` processes on the one
port (SQLite refuses more than one, saying why); a seeded database needs no ``--workspace``.
The first line on standard output is exactly ``taskdesk: serving http://HOST:PORT``. The
database defaults to a file in the user's data folder keyed by the workspace's absolute
path, seeded from the workspace when new. Stops cleanly on SIGINT or SIGTERM. ``--spec-only``
serves the spec's four endpoints and none of the EXTENSIONs, to try the app against a
server that lacks them. ``--check`` does everything but serve: the workspace is checked and
the database opened (and seeded when new), then it prints ``taskdesk: workspace FILE is
ready`` and exits 0. A bad workspace or database exits 2 with one line naming what is wrong.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import re
import signal
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cli.common import EXIT_OK, UsageError

if TYPE_CHECKING:
    from app.server.db_open import DatabaseTarget

NAME = "serve"
HELP = "run the reference server"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--workspace", type=Path, help="workspace JSON file (seeds an empty database)"
    )
    parser.add_argument(
        "--db",
        default=os.environ.get("TASKDESK_DB") or None,
        help="SQLite file (default: in the data folder) or postgresql://user@host/db"
        " (default: TASKDESK_DB)",
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="server processes (PostgreSQL only above 1)"
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765, help="0 takes a free port")
    parser.add_argument(
        "--spec-only",
        action="store_true",
        help="serve only the spec's endpoints, none of the reference server's extensions",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="check the workspace and open (seed) the database, then exit without serving",
    )


def run(args: argparse.Namespace) -> int:
    if args.workspace is None and not args.db:
        raise UsageError("say what to serve: --workspace FILE, or --db of a seeded database")
    if args.check:
        return check(args.workspace, args.db)
    return serve(
        args.workspace,
        args.db,
        args.host,
        args.port,
        extensions=not args.spec_only,
        workers=args.workers,
    )


def _target(workspace: Path | None, db: str | Path | None) -> DatabaseTarget:
    from app.server.db_open import database_target

    if db:
        return database_target(db)
    assert workspace is not None
    return default_db_path(workspace)


def check(workspace: Path | None, db: str | Path | None) -> int:
    """What ``serve`` does before it listens: check the workspace, open and seed the database."""
    from app.server.app_factory import open_database
    from app.server.database import DatabaseError

    db_path = _target(workspace, db)
    try:
        open_database(db_path, workspace).close()
    except DatabaseError as exc:
        raise UsageError(str(exc)) from None
    print(f"taskdesk: {f'workspace {workspace}' if workspace else 'database'} is ready", flush=True)
    return EXIT_OK


def default_db_path(workspace: Path) -> Path:
    """A database in the user's data folder, one per workspace file."""
    from platformdirs import user_data_path

    resolved = workspace.expanduser().resolve()
    key = hashlib.sha256(str(resolved).encode()).hexdigest()[:12]
    stem = re.sub(r"[^A-Za-z0-9_-]", "", resolved.stem) or "workspace"
    return user_data_path("taskdesk", appauthor=False) / "servers" / f"{stem}-{key}.sqlite3"


def serve(
    workspace: Path | None,
    db: str | Path | None,
    host: str,
    port: int,
    *,
    extensions: bool = True,
    workers: int = 1,
) -> int:
    from app.connect.exit_with_parent import follow_parent

    if not follow_parent():
        return EXIT_OK  # started by an app that is gone already
    from app.server import ServerStartError, start_server
    from app.server.database import DatabaseError

    if not 0 <= port <= 65535:
        raise UsageError(f"--port {port} is not a port number (0 to 65535)")
    db_path = _target(workspace, db)
    from app.server.workers import check_workers

    refused = check_workers(db_path, workers)
    if refused:
        raise UsageError(refused)
    if workers > 1:
        return _serve_workers(workspace, db_path, host, port, extensions, workers)
    try:
        handle = start_server(workspace, db_path, host=host, port=port, extensions=extensions)
    except DatabaseError as exc:
        raise UsageError(str(exc)) from None
    except (OSError, ServerStartError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise UsageError(f"cannot serve on {host}:{port}: {reason}") from None
    stop = _StopSignals()
    try:
        print(f"taskdesk: serving {handle.url}", flush=True)
        stop.wait()
    finally:
        handle.stop()
        stop.close()
    return EXIT_OK


def _serve_workers(
    workspace: Path | None,
    db: DatabaseTarget,
    host: str,
    port: int,
    extensions: bool,
    workers: int,
) -> int:
    """``workers`` processes on one port: the database migrated and seeded here first."""
    from app.server.app_factory import open_database
    from app.server.database import DatabaseError
    from app.server.running import listening_socket
    from app.server.workers import WorkerPlan, WorkerPool

    try:
        open_database(db, workspace).close()
    except DatabaseError as exc:
        raise UsageError(str(exc)) from None
    try:
        sock = listening_socket(host, port)
    except OSError as exc:
        raise UsageError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
    bound = sock.getsockname()[1]
    pool = WorkerPool(sock, WorkerPlan(db, extensions), workers)
    stop = _StopSignals()
    try:
        shown = f"[{host}]" if ":" in host else host
        print(f"taskdesk: serving http://{shown}:{bound}", flush=True)
        stop.wait()
    finally:
        pool.stop()
        sock.close()
        stop.close()
    return EXIT_OK


class _StopSignals:
    """SIGINT and SIGTERM end ``wait()`` (only the main thread may set handlers).

    The handler only writes a byte to a pipe, taking no lock: the signal may come again
    while a handler runs (an app killed with all its threads sends the parent-death signal
    once per thread), and a handler that took a lock, as ``Event.set`` does, would then
    wait for itself.
    """

    def __init__(self) -> None:
        self._read, self._write = os.pipe()
        os.set_blocking(self._write, False)
        self._previous: dict[int, Any] = {}
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._previous[sig] = signal.signal(sig, self._on_signal)

    def _on_signal(self, _sig: int, _frame: object) -> None:
        with contextlib.suppress(OSError):  # the pipe is full: a byte is waiting already
            os.write(self._write, b"\0")

    def wait(self) -> None:
        os.read(self._read, 1)  # resumed after each handler (PEP 475) until a byte is in

    def close(self) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)
        os.close(self._read)
        os.close(self._write)
