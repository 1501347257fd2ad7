"""Security tests: a reference server with chosen connection limits, on a real loopback port."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.server import ServerHandle, start_server
from app.server.http_guard import ConnectionLimits
from app.server.rate_limit import RunRate
from tests.live_server import WORKSPACE_BASIC

LimitedServer = Callable[..., ServerHandle]


@pytest.fixture
def limited_server(tmp_path: Path) -> Iterator[LimitedServer]:
    """``limited_server(run_rate=None, **limits)``: the basic workspace served with these
    connection limits (``ConnectionLimits`` fields) and run rate."""
    started: list[ServerHandle] = []

    def start(
        workspace: Path = WORKSPACE_BASIC, run_rate: RunRate | None = None, **limits: float
    ) -> ServerHandle:
        handle = start_server(
            workspace,
            tmp_path / f"limited-{len(started)}.sqlite3",
            limits=ConnectionLimits(**limits),  # type: ignore[arg-type]
            run_rate=run_rate,
        )
        started.append(handle)
        return handle

    yield start
    for handle in started:
        handle.stop()
