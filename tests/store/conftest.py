"""Fixtures for the local store tests: a fresh store file in a temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.store import LocalStore


class FakeClock:
    """A settable wall clock, so retention rules can be checked across 30 days."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(tmp_path: Path, clock: FakeClock) -> Iterator[LocalStore]:
    with LocalStore(tmp_path / "data" / "store.sqlite3", clock=clock) as opened:
        yield opened
