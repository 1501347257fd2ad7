"""A normal GET while 500 slow clients hold half-sent requests, beside it on a quiet server.

The reference server runs as `taskdesk serve` in its own process, as in real use. Measured:
  - the baseline: GET /api/me (keep-alive session), median and 95th percentile, quiet server;
  - the same GET while 500 connections each hold a request head that never ends;
  - a GET on a new connection each time, under the same load (accept queue included);
  - how many of the 500 the server still holds after its head timeout (10 s) has passed.
The target: the GET under load stays under 100 ms, and no slow connection outlives the timeout.

Run: .venv/bin/python bench/bench_slow_connections.py [slow_connections]
"""

from __future__ import annotations

import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import requests

REPO = Path(__file__).resolve().parents[1]
WORKSPACE = REPO / "tests" / "data" / "workspace_basic.json"
HEADERS = {"Authorization": "Bearer ann-secret"}
SAMPLES = 100
HEAD_TIMEOUT_S = 10.0


def timings(get: Callable[[], None], samples: int = SAMPLES) -> list[float]:
    times = []
    for _ in range(samples):
        started = time.perf_counter()
        get()
        times.append((time.perf_counter() - started) * 1000)
    return times


def summary(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[int(len(ordered) * 0.95) - 1]


def open_slow(host: str, port: int, count: int) -> list[socket.socket]:
    slow = []
    for _ in range(count):
        sock = socket.create_connection((host, port), timeout=5)
        sock.sendall(b"GET /api/me HTTP/1.1\r\nHost: bench\r\nX-Slow: ")  # never finished
        slow.append(sock)
    return slow


def still_open(slow: list[socket.socket]) -> int:
    """How many the server has not closed (a closed one reads EOF or an answer then EOF)."""
    count = 0
    for sock in slow:
        sock.setblocking(False)
        try:
            data = sock.recv(65536)
            while data:
                data = sock.recv(65536)
        except BlockingIOError:
            count += 1  # nothing to read: still held open
        except OSError:
            pass
    return count


def main() -> None:
    slow_count = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [sys.executable, "-m", "app", "serve", "--workspace", str(WORKSPACE),
             "--db", f"{folder}/db.sqlite3", "--port", "0"],
            stdout=subprocess.PIPE,
            cwd=REPO,
        )  # fmt: skip
        try:
            assert server.stdout is not None
            url = server.stdout.readline().decode().strip().removeprefix("taskdesk: serving ")
            host, port = url.removeprefix("http://").rsplit(":", 1)
            with requests.Session() as session:

                def get() -> None:
                    assert session.get(url + "/api/me", headers=HEADERS, timeout=10).ok

                def get_new_connection() -> None:
                    assert requests.get(url + "/api/me", headers=HEADERS, timeout=10).ok

                timings(get, 20)  # warm up
                quiet = summary(timings(get))
                quiet_new = summary(timings(get_new_connection))
                opened_at = time.monotonic()
                slow = open_slow(host, int(port), slow_count)
                loaded = summary(timings(get))
                loaded_new = summary(timings(get_new_connection))
                measured_in = time.monotonic() - opened_at
                time.sleep(max(0.0, HEAD_TIMEOUT_S + 2 - (time.monotonic() - opened_at)))
                left = still_open(slow)
                for sock in slow:
                    sock.close()
        finally:
            server.terminate()
            server.wait(10)
    print(f"GET /api/me, {SAMPLES} requests each (median / 95th percentile, ms)")
    print(f"  quiet server, keep-alive:             {quiet[0]:6.2f} / {quiet[1]:6.2f}  (baseline)")
    print(f"  {slow_count} slow clients, keep-alive:        {loaded[0]:6.2f} / {loaded[1]:6.2f}"
          f"  ({loaded[0] / quiet[0]:.2f}x the baseline median)")  # fmt: skip
    print(f"  quiet server, new connection each:    {quiet_new[0]:6.2f} / {quiet_new[1]:6.2f}")
    print(f"  {slow_count} slow clients, new connection:    {loaded_new[0]:6.2f} / "
          f"{loaded_new[1]:6.2f}  ({loaded_new[0] / quiet_new[0]:.2f}x)")  # fmt: skip
    print(f"  (measured within {measured_in:.1f} s of opening the slow connections)")
    print(f"slow connections still open {HEAD_TIMEOUT_S + 2:.0f} s after they opened: "
          f"{left} of {slow_count}")  # fmt: skip


if __name__ == "__main__":
    main()
