"""Fixtures for the compatibility tests: a second, independent server of the spec endpoints."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.client import TaskdeskClient
from tests.spec_server import SpecServer, Variations
from tests.window_steps import fresh_home, make_window

__all__ = ["fresh_home", "make_window"]


@pytest.fixture
def spec_server() -> Iterator[SpecServer]:
    """A fresh spec-only server per test; switch variations on through ``.variations``."""
    server = SpecServer(Variations()).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def ann(spec_server: SpecServer) -> Iterator[TaskdeskClient]:
    """An operator's client of the spec server (at its URL when the test starts)."""
    with TaskdeskClient(spec_server.url, "ann-secret") as client:
        yield client
