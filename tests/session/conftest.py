"""Fixtures for the session tests: a real server behind a real fault proxy, a real store."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import shiboken6

from app.client import TaskdeskClient
from app.desk.runner import Runner
from app.server import ServerHandle
from app.store import LocalStore
from tests.faultproxy import FaultProxy
from tests.session import session_env as env


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerHandle]:
    with env.running_server(tmp_path) as handle:
        yield handle


@pytest.fixture
def hooks(server: ServerHandle) -> Iterator[env.TestHooks]:
    hooks = env.TestHooks(server.url)
    yield hooks
    hooks.reset()


@pytest.fixture
def proxy(server: ServerHandle) -> Iterator[FaultProxy]:
    """Our operator's requests go through this proxy: it counts them and can refuse them."""
    with FaultProxy(server.url) as running:
        yield running


@pytest.fixture
def ann(proxy: FaultProxy) -> Iterator[TaskdeskClient]:
    """The operator at this desk, through the proxy."""
    with env.client(proxy.url, env.ANN) as opened:
        yield opened


@pytest.fixture
def bob(server: ServerHandle) -> Iterator[TaskdeskClient]:
    """Another operator saving from elsewhere, straight to the server."""
    with env.client(server.url, env.BOB) as opened:
        yield opened


@pytest.fixture
def store(tmp_path: Path) -> Iterator[LocalStore]:
    with LocalStore(tmp_path / "desk" / "store.sqlite3") as opened:
        yield opened


@pytest.fixture
def runner(qapp: Any) -> Iterator[Runner]:
    running = Runner()
    yield running
    assert running.shutdown(15_000), "background jobs outlived the test"


@pytest.fixture
def make_harness(
    ann: TaskdeskClient, store: LocalStore, runner: Runner
) -> Iterator[Callable[..., Any]]:
    made: list[Any] = []

    def make(**kw: Any) -> Any:
        kw.setdefault("client", ann)
        kw.setdefault("store", store)
        kw.setdefault("runner", runner)
        harness = env.make_harness(**kw)
        made.append(harness)
        return harness

    yield make
    for harness in made:  # before the runner shuts down: close() writes the last draft
        if not shiboken6.isValid(harness.session):
            continue  # the test dropped it (a crash)
        harness.session.close()
        harness.runner.wait_idle()
        harness.session.deleteLater()
