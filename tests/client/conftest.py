"""Fixtures for the client tests: the real reference server (tests/live_server.py) and the
fault proxy in front of it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypedDict

import pytest

from app.client import TaskdeskClient
from tests.faultproxy import FaultProxy
from tests.live_server import LiveServer

ANN = "ann-secret"  # operator
BOB = "bob-secret"  # second operator
MIA = "mia-secret"  # member


class Bounds(TypedDict):
    connect_timeout: float
    read_timeout: float
    deadline: float


# Short bounds so a fault shows within a second or two, never a hang.
FAST: Bounds = {"connect_timeout": 1.0, "read_timeout": 0.75, "deadline": 1.5}
SMALL_BODY_LIMIT = 4 * 1024 * 1024


@pytest.fixture
def server(live_server: LiveServer) -> LiveServer:
    """A fresh reference server with the basic workspace, its test hooks on."""
    return live_server


@pytest.fixture
def client(server: LiveServer) -> Iterator[TaskdeskClient]:
    """Ann's client straight to the server."""
    with TaskdeskClient(server.url, ANN) as c:
        yield c


@pytest.fixture
def proxy(server: LiveServer) -> Iterator[FaultProxy]:
    with FaultProxy(server.url) as p:
        yield p


@pytest.fixture
def proxied(proxy: FaultProxy) -> Iterator[TaskdeskClient]:
    """Ann's client through the fault proxy, with short timeouts and a small body bound."""
    with TaskdeskClient(proxy.url, ANN, max_body_bytes=SMALL_BODY_LIMIT, **FAST) as c:
        yield c
