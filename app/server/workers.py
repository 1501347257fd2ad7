"""``taskdesk serve --workers N``: N server processes on one port, over one PostgreSQL.

The parent opens the database once (the migrations and the seeding run there, not N times
at once), binds the port, and starts N worker processes that each serve the same listening
socket (the kernel hands each connection to one of them). Nothing a worker keeps in memory
must be shared: callers are looked up per request, ETags and the picker's answers are keyed
by what the database says, the live events come through LISTEN/NOTIFY; the run rate limit is
per worker (a caller may start N times the runs per second: docs/API-EXTENSIONS.md). A worker
that ends unasked (killed) is started again; the others serve meanwhile.
"""

from __future__ import annotations

import multiprocessing
import socket
import threading
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from pathlib import Path

from app.server.db_open import DatabaseTarget, is_postgres

SQLITE_ONE_WORKER = (
    "--workers above 1 needs a PostgreSQL database (--db postgresql://…): a SQLite file is "
    "written by one process"
)
RESTART_PAUSE = 0.5  # a worker that dies at once is not started again in a tight loop


@dataclass(frozen=True, slots=True)
class WorkerPlan:
    """What each worker process needs to build the same app (it must pickle: spawn)."""

    db: DatabaseTarget
    extensions: bool


def check_workers(db: DatabaseTarget, workers: int) -> str | None:
    """Why ``workers`` can't serve ``db``, in one line; None when they can."""
    if workers < 1:
        return f"--workers {workers}: at least 1"
    if workers > 1 and not is_postgres(db):
        return SQLITE_ONE_WORKER
    return None


def worker_main(sock: socket.socket, plan: WorkerPlan) -> None:
    """One worker: the app over its own connections, serving the shared socket."""
    import uvicorn

    from app.server.app_factory import create_app
    from app.server.http_guard import ConnectionLimits
    from app.server.running import server_config

    db = plan.db if is_postgres(plan.db) else Path(plan.db)
    app = create_app(db, None, extensions=plan.extensions)
    server = uvicorn.Server(server_config(app, ConnectionLimits()))
    server.run(sockets=[sock])


class WorkerPool:
    """N worker processes on one listening socket, kept at N until ``stop()``."""

    def __init__(self, sock: socket.socket, plan: WorkerPlan, count: int) -> None:
        self._sock = sock
        self._plan = plan
        self._context = multiprocessing.get_context("spawn")
        self._stopping = threading.Event()
        self.processes: list[BaseProcess] = [self._start() for _ in range(count)]
        self._keeper = threading.Thread(target=self._keep, name="taskdesk-workers", daemon=True)
        self._keeper.start()

    def _start(self) -> BaseProcess:
        process = self._context.Process(
            target=worker_main, args=(self._sock, self._plan), name="taskdesk-worker"
        )
        process.start()
        return process

    def _keep(self) -> None:
        while not self._stopping.wait(RESTART_PAUSE):
            for i, process in enumerate(self.processes):
                if not process.is_alive() and not self._stopping.is_set():
                    self.processes[i] = self._start()

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM each worker (uvicorn finishes what it serves), then wait."""
        self._stopping.set()
        self._keeper.join()
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            process.join(timeout)
            if process.is_alive():
                process.kill()
                process.join()
