"""Pytest fixtures for a real reference server on a free loopback port (register as a plugin).

``live_server``: a fresh server per test, seeded from ``tests/data/workspace_basic.json`` into
a new SQLite file under ``tmp_path``, test hooks on. It is a ``LiveServer``:

    live_server.url                   "http://127.0.0.1:PORT"
    live_server.token("ann")          a token by person or agent id ("u_ann", "a_scout") or
                                      lower-case name ("ann", "bob", "mia", "scout", ...)
    live_server.auth("ann")           {"Authorization": "Bearer ann-secret"}
    live_server.hook("fail", status=503, count=1)   POST /__test__/fail (tests/server_hooks.py)
    live_server.restart()             stop, then start again on the same database (and port)

Both backends: a test module that sets ``BOTH_BACKENDS = True`` runs each of its tests that
start a server twice, on SQLite and on PostgreSQL (``server_backend``; a schema of its own in
a PostgreSQL server the run starts once, ``postgres``). A test that passes its own
``db_path`` (a file) stays on SQLite.

``server_factory(workspace=None, *, test_hooks=True, db_path=None)``: start another server,
from a workspace dict (written to a file), a workspace path, or the basic workspace. Every
server a test starts is stopped when it ends: in the background, since winding down its
event loop takes a quarter of a second that the next test need not wait for (all of them
have stopped before the run ends). ``workspace_basic`` gives a fresh copy of the
basic workspace as a dict to change before passing it to ``server_factory``.
"""

from __future__ import annotations

import contextlib
import copy
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests
from starlette.applications import Starlette

from app.server import ServerHandle, start_server
from app.server.db_open import DatabaseTarget
from tests.postgres_cluster import PostgresCluster, postgres_cluster
from tests.server_hooks import install_test_hooks

WORKSPACE_BASIC = Path(__file__).resolve().parent / "data" / "workspace_basic.json"
HTTP_TIMEOUT = 10.0


def _hooks(on: bool) -> Callable[[Starlette], None] | None:
    """The fault-injection routes for ``configure=``, or none."""
    return install_test_hooks if on else None


def _tokens(workspace: dict[str, Any]) -> dict[str, str]:
    tokens: dict[str, str] = {}
    for entry in [*workspace.get("people", []), *workspace.get("agents", [])]:
        if entry.get("token"):
            tokens[entry["id"]] = entry["token"]
            tokens.setdefault(str(entry.get("name", entry["id"])).lower(), entry["token"])
    return tokens


@dataclass
class LiveServer:
    """A running reference server and what a test needs to talk to it."""

    handle: ServerHandle
    workspace_path: Path
    db_path: DatabaseTarget
    test_hooks: bool
    tokens: dict[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return self.handle.url

    @property
    def port(self) -> int:
        return self.handle.port

    def token(self, who: str) -> str:
        """The token of a person or agent, by id or lower-case name."""
        try:
            return self.tokens[who]
        except KeyError:
            raise KeyError(f"no token for {who!r}; known: {sorted(self.tokens)}") from None

    def auth(self, who: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token(who)}"}

    def hook(self, name: str, **body: Any) -> requests.Response:
        """POST a test hook (the server must run with test hooks)."""
        response = requests.post(f"{self.url}/__test__/{name}", json=body, timeout=HTTP_TIMEOUT)
        response.raise_for_status()
        return response

    def put_note(self, display_path: str, **body: Any) -> dict[str, Any]:
        """Create or replace a note through the test hook; returns the note as stored."""
        response = requests.put(
            f"{self.url}/__test__/notes/{display_path}", json=body, timeout=HTTP_TIMEOUT
        )
        response.raise_for_status()
        result: dict[str, Any] = response.json()
        return result

    def query(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Rows of ``sql`` (SQLite's text) read straight from the server's database file or
        PostgreSQL schema, not through the server."""
        if isinstance(self.db_path, str):
            import psycopg

            from app.server.sql_dialect import postgres_query

            with psycopg.connect(self.db_path, autocommit=True) as conn:
                return [tuple(r) for r in conn.execute(postgres_query(sql), parameters)]
        with contextlib.closing(sqlite3.connect(self.db_path)) as conn:
            return [tuple(r) for r in conn.execute(sql, parameters)]

    def stop(self) -> None:
        self.handle.stop()

    def restart(self) -> LiveServer:
        """Stop and start again on the same database, on the same port when it is free."""
        self.handle.stop()
        try:
            self.handle = start_server(
                self.workspace_path, self.db_path, port=self.port, configure=_hooks(self.test_hooks)
            )
        except OSError:
            self.handle = start_server(
                self.workspace_path, self.db_path, configure=_hooks(self.test_hooks)
            )
        return self


ServerFactory = Callable[..., LiveServer]

_stopping: list[threading.Thread] = []


def _stop_in_background(servers: list[LiveServer]) -> None:
    for server in servers:
        stopper = threading.Thread(target=server.stop, name="live-server-stop", daemon=True)
        stopper.start()
        _stopping.append(stopper)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """No server outlives the run."""
    for stopper in _stopping:
        stopper.join()


@pytest.fixture
def workspace_basic() -> dict[str, Any]:
    """A fresh copy of the basic test workspace, to change before starting a server."""
    data: dict[str, Any] = json.loads(WORKSPACE_BASIC.read_text(encoding="utf-8"))
    return copy.deepcopy(data)


BACKENDS = ("sqlite", "postgresql")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A module with ``BOTH_BACKENDS = True``: its servers' tests on each backend."""
    if getattr(metafunc.module, "BOTH_BACKENDS", False) and (
        "server_backend" in metafunc.fixturenames
    ):
        metafunc.parametrize("server_backend", BACKENDS, indirect=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """A PostgreSQL server of the run's own (each xdist worker starts one), started the first
    time a test asks for it."""
    with postgres_cluster() as cluster:
        yield cluster


@pytest.fixture
def server_backend(request: pytest.FixtureRequest) -> str:
    """``sqlite`` unless the module runs on both backends (``BOTH_BACKENDS``)."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
def server_factory(
    tmp_path: Path, server_backend: str, request: pytest.FixtureRequest
) -> Iterator[ServerFactory]:
    started: list[LiveServer] = []

    def start(
        workspace: dict[str, Any] | Path | None = None,
        *,
        test_hooks: bool = True,
        db_path: Path | None = None,
    ) -> LiveServer:
        n = len(started)
        if isinstance(workspace, dict):
            path = tmp_path / f"workspace-{n}.json"
            path.write_text(json.dumps(workspace), encoding="utf-8")
        else:
            path = workspace if workspace is not None else WORKSPACE_BASIC
        data = json.loads(path.read_text(encoding="utf-8"))
        db: DatabaseTarget
        if db_path is not None:
            db = db_path
        elif server_backend == "postgresql":
            db = request.getfixturevalue("postgres").new_schema()
        else:
            db = tmp_path / f"server-{n}.sqlite3"
        handle = start_server(path, db, configure=_hooks(test_hooks))
        server = LiveServer(handle, path, db, test_hooks, _tokens(data))
        started.append(server)
        return server

    yield start
    _stop_in_background(started)


@pytest.fixture
def live_server(server_factory: ServerFactory) -> LiveServer:
    """A fresh reference server seeded from the basic workspace, test hooks on."""
    return server_factory()
