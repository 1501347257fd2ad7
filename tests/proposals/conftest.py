"""Fixtures for the proposals tests: clients by person on the real server, a store, a runner."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.client import TaskdeskClient
from app.desk.proposal_review_desk import ReviewDesk
from app.desk.runner import Runner
from app.store.local_store import LocalStore
from tests.live_server import LiveServer

SERVER_KEY = "test-server"


@pytest.fixture
def clients(live_server: LiveServer) -> Iterator[Callable[[str], TaskdeskClient]]:
    made: list[TaskdeskClient] = []

    def client(who: str) -> TaskdeskClient:
        made.append(TaskdeskClient(live_server.url, live_server.token(who)))
        return made[-1]

    yield client
    for one in made:
        one.close()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[LocalStore]:
    with LocalStore(tmp_path / "desk" / "store.sqlite3") as opened:
        yield opened


@pytest.fixture
def runner(qtbot: QtBot) -> Iterator[Runner]:
    worker = Runner()
    yield worker
    assert worker.shutdown(15_000), "background jobs outlived the test"


@pytest.fixture
def make_desk(
    clients: Callable[[str], TaskdeskClient], store: LocalStore, runner: Runner
) -> Callable[..., ReviewDesk]:
    def make(who: str = "ann", the_store: LocalStore | None = None) -> ReviewDesk:
        client = clients(who)
        agents = {a.id: a for a in client.agents()}
        return ReviewDesk(
            client=client,
            store=the_store or store,
            server_key=SERVER_KEY,
            runner=runner,
            org_id="o_acme",
            agents=agents,
        )

    return make
