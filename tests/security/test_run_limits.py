"""Run creation is rate-limited per caller (429 with Retry-After), and an agent keeps a bounded
number of runs."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
import requests

from app.client import TaskdeskClient
from app.client.errors import RateLimited
from app.server import ServerHandle
from app.server.rate_limit import RateLimiter, RunRate
from app.server.run_records import MAX_RUNS_PER_AGENT
from tests.security.conftest import LimitedServer

TIMEOUT = 15.0
MIA = {"Authorization": "Bearer mia-secret"}  # a member
ANN = {"Authorization": "Bearer ann-secret"}  # an operator


def _start_run(server: ServerHandle, headers: dict[str, str]) -> requests.Response:
    return requests.post(f"{server.url}/api/agents/a_writer/runs", headers=headers, timeout=TIMEOUT)


def test_a_caller_past_the_burst_gets_429_with_retry_after(limited_server: LimitedServer) -> None:
    server = limited_server(run_rate=RunRate(burst=5, per_second=0.1))
    answers = [_start_run(server, MIA) for _ in range(7)]
    assert [a.status_code for a in answers] == [201] * 5 + [429] * 2
    refused = answers[-1]
    assert refused.json() == {"error": "too many runs"}
    assert 1 <= int(refused.headers["Retry-After"]) <= 10
    # Another caller has a bucket of their own.
    assert _start_run(server, ANN).status_code == 201
    with TaskdeskClient(server.url, "mia-secret") as client, pytest.raises(RateLimited) as raised:
        client.create_run("a_writer")
    assert raised.value.retry_after is not None and raised.value.retry_after >= 1


def test_the_default_rate_stops_a_flood(limited_server: LimitedServer) -> None:
    server = limited_server()
    with requests.Session() as session:
        session.headers.update(MIA)
        codes = [
            session.post(f"{server.url}/api/agents/a_writer/runs", timeout=TIMEOUT).status_code
            for _ in range(200)
        ]
    assert codes.count(201) <= RunRate().burst + 5  # a few more refill while the loop runs
    assert codes.count(429) >= 150


def test_the_bucket_refills_with_time() -> None:
    now = [0.0]
    limiter = RateLimiter(RunRate(burst=2, per_second=0.5), clock=lambda: now[0])
    assert [limiter.take("u_mia") for _ in range(3)] == [0, 0, 2]
    now[0] = 2.0
    assert limiter.take("u_mia") == 0
    assert limiter.take("u_mia") == 2


def test_an_agent_keeps_only_its_newest_runs(limited_server: LimitedServer, tmp_path: Path) -> None:
    server = limited_server(run_rate=RunRate(burst=10_000, per_second=1000))
    with requests.Session() as session:
        session.headers.update(ANN)
        ids = []
        for _ in range(MAX_RUNS_PER_AGENT + 5):
            made = session.post(f"{server.url}/api/agents/a_writer/runs", timeout=TIMEOUT)
            assert made.status_code == 201
            ids.append(made.json()["id"])
        assert session.get(f"{server.url}/api/runs/{ids[0]}", timeout=TIMEOUT).status_code == 404
        assert session.get(f"{server.url}/api/runs/{ids[-1]}", timeout=TIMEOUT).status_code == 200
    db = next(tmp_path.glob("limited-*.sqlite3"))
    with closing(sqlite3.connect(db)) as conn:
        (count,) = conn.execute("SELECT COUNT(*) FROM runs WHERE agent_id = 'a_writer'").fetchone()
    assert count == MAX_RUNS_PER_AGENT
