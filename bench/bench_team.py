"""The team server: GET throughput with 2 workers vs 1, PUT p99 under 32 writers beside the
storage floor and SQLite, and how soon a save's event reaches a subscriber.

Everything runs in the same run on this machine, loopback, against a PostgreSQL server the
bench starts itself (tests/postgres_cluster.py, fsync off as in the tests; the figures are
the server's, not the disk's):
  - Task GET throughput (wrk, 4 connections per worker, 4 s, 5 rounds alternating):
    `taskdesk serve --workers 1` and `--workers 2` on PostgreSQL; the ratio of the medians is
    what the second core buys.
  - PUT latency under 32 concurrent writers on one Task (unconditional saves, each a whole
    save: revision archived, 50 kept, a file change, an event): the 2-worker PostgreSQL
    server, SQLite's one process, and the floor: a bare psycopg loop of 32 threads each doing
    the conditional update `UPDATE … SET task_version = task_version + 1 WHERE id = ? AND
    task_version = ?` in its own transaction (retrying on a lost race), no HTTP, no revisions.
  - Event latency: a subscriber on the 2-worker server, 60 saves one after another; the time
    from each save's answer to its event arriving.

Run: .venv/bin/python bench/bench_team.py
"""

from __future__ import annotations

import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg
import requests

from tests.live_server import WORKSPACE_BASIC
from tests.postgres_cluster import postgres_cluster
from tests.server.event_stream import Subscriber

REPO = Path(__file__).resolve().parents[1]
TOKEN = "ann-secret"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
TASK = "/api/agents/a_writer/files/task.md"
SERVING = re.compile(r"taskdesk: serving (http://\S+)")
WRITERS = 32
ROUNDS = 5  # of 4 s of GETs on each server
PUTS_EACH = 15


class Served:
    def __init__(self, db: str, workers: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app", "serve", "--workspace", str(WORKSPACE_BASIC),
             "--db", db, "--workers", str(workers), "--port", "0"],
            stdout=subprocess.PIPE, cwd=REPO,
        )  # fmt: skip
        assert self.process.stdout is not None
        found = SERVING.search(self.process.stdout.readline().decode())
        assert found, "the server did not start"
        self.url = found.group(1)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # every worker up (each answers its first request)
            try:
                if all(requests.get(self.url + TASK, headers=AUTH, timeout=5).ok for _ in range(8)):
                    break
            except requests.RequestException:
                pass
            time.sleep(0.2)

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(30)


def wrk_throughput(url: str, connections: int, seconds: int = 4) -> float:
    script = Path(tempfile.mkdtemp()) / "auth.lua"
    script.write_text(f'wrk.headers["Authorization"] = "Bearer {TOKEN}"\n')
    done = subprocess.run(
        ["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "-s", str(script),
         url + TASK],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    found = re.search(r"Requests/sec:\s+([\d.]+)", done.stdout)
    assert found, done.stdout
    return float(found.group(1))


def put_latencies(url: str) -> list[float]:
    barrier = threading.Barrier(WRITERS)
    times: list[float] = []
    lock = threading.Lock()

    def writer(n: int) -> None:
        with requests.Session() as session:
            barrier.wait()
            for i in range(PUTS_EACH):
                started = time.perf_counter()
                answer = session.put(
                    url + TASK, json={"content": f"w{n} {i}"}, headers=AUTH, timeout=30
                )
                took = time.perf_counter() - started
                assert answer.status_code == 200, answer.text
                with lock:
                    times.append(took)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return times


def bare_psycopg_latencies(url: str) -> list[float]:
    """The storage floor: conditional updates of one row, 32 threads, no HTTP."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS floor (id TEXT PRIMARY KEY, v BIGINT, t TEXT)")
        conn.execute("INSERT INTO floor VALUES ('a', 1, '') ON CONFLICT (id) DO NOTHING")
    barrier = threading.Barrier(WRITERS)
    times: list[float] = []
    lock = threading.Lock()

    def writer(n: int) -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            barrier.wait()
            for i in range(PUTS_EACH):
                started = time.perf_counter()
                while True:
                    with conn.transaction():
                        (v,) = conn.execute("SELECT v FROM floor WHERE id = 'a'").fetchone()
                        done = conn.execute(
                            "UPDATE floor SET v = v + 1, t = %s WHERE id = 'a' AND v = %s",
                            (f"w{n} {i}", v),
                        ).rowcount
                    if done:
                        break
                took = time.perf_counter() - started
                with lock:
                    times.append(took)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return times


def event_latencies(url: str, saves: int = 60) -> list[float]:
    subscriber = Subscriber(url, "bob-secret")
    times = []
    try:
        with requests.Session() as session:
            for i in range(saves):
                answer = session.put(
                    url + TASK, json={"content": f"e{i}"}, headers=AUTH, timeout=30
                )
                answered = time.monotonic()
                version = answer.json()["version"]
                while True:
                    event = subscriber.next_event("task_saved", timeout=5)
                    if event.data.get("version") == version:
                        break
                times.append(max(0.0, event.received - answered))
    finally:
        subscriber.close()
    return times


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.1f} ms, p99 {p(values, 0.99) * 1000:.1f} ms"


def main() -> None:
    with postgres_cluster() as cluster, tempfile.TemporaryDirectory() as folder:
        one = Served(cluster.new_database("one"), 1)
        two = Served(cluster.new_database("two"), 2)
        try:
            # Alternating rounds, the idle server waiting (it costs nothing): a drift in the
            # machine's load falls on both alike, and the medians are compared.
            # A warm-up second on each first: every worker's pooled connections past
            # psycopg's prepare threshold, as on a server that has been up a while.
            wrk_throughput(one.url, 4, seconds=1)
            wrk_throughput(two.url, 8, seconds=1)
            ones: list[float] = []
            twos: list[float] = []
            for _ in range(ROUNDS):
                ones.append(wrk_throughput(one.url, 4))
                twos.append(wrk_throughput(two.url, 8))
        finally:
            one.stop()
        try:
            put_pg = put_latencies(two.url)
            events = event_latencies(two.url)
        finally:
            two.stop()
        floor = bare_psycopg_latencies(cluster.new_database("floor"))
        lite = Served(str(Path(folder) / "bench.sqlite3"), 1)
        try:
            put_sqlite = put_latencies(lite.url)
        finally:
            lite.stop()
    get_one, get_two = statistics.median(ones), statistics.median(twos)
    rounds = ", ".join(f"{b / a:.2f}x" for a, b in zip(ones, twos, strict=True))
    print(f"Task GET, PostgreSQL, 1 worker:  {get_one:8.0f} requests/s (median of {ROUNDS})")
    print(f"Task GET, PostgreSQL, 2 workers: {get_two:8.0f} requests/s  ({get_two / get_one:.2f}x)")
    print(f"  each round, 2 workers vs 1: {rounds}")
    print(f"PUT under {WRITERS} writers, PostgreSQL 2 workers: {ms(put_pg)}")
    print(f"PUT under {WRITERS} writers, SQLite 1 process:     {ms(put_sqlite)}")
    print(f"bare psycopg conditional update, {WRITERS} threads: {ms(floor)}")
    print(f"event after the save's answer ({len(events)} saves): {ms(events)}")


if __name__ == "__main__":
    main()
