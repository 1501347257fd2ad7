"""The fleet's tests: a real server with a fleet of agents, a real client and a real runner."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from app.client import TaskdeskClient
from app.desk.runner import Runner
from tests.fleet.fleet_data import fleet_workspace
from tests.live_server import LiveServer, ServerFactory


@pytest.fixture
def fleet(server_factory: ServerFactory) -> LiveServer:
    return server_factory(fleet_workspace())


@pytest.fixture
def ann(fleet: LiveServer) -> Iterator[TaskdeskClient]:
    with TaskdeskClient(fleet.url, fleet.token("ann")) as client:
        yield client


@pytest.fixture
def bob(fleet: LiveServer) -> Iterator[TaskdeskClient]:
    with TaskdeskClient(fleet.url, fleet.token("bob")) as client:
        yield client


@pytest.fixture
def runner(qapp: Any) -> Iterator[Runner]:
    running = Runner()
    yield running
    assert running.shutdown(15_000), "background jobs outlived the test"
