"""The reference server under load: GET and PUT req/s and p99 at 32 connections, beside the
figures recorded before the hardening of issue 29 (and, with ``--against REV``, beside that
revision's server measured in the same run, since the machine's load moves every figure).

The server runs as ``taskdesk serve`` in its own process, as in real use; the load comes from
wrk when it is installed (Debian's ``wrk``), else from a small keep-alive load generator of
threads here. Each caller has a valid token, so the token gate, the connection book and the
body-rate timer are all on the measured path.

Run: .venv/bin/python bench/bench_http_load.py [--seconds 5] [--against 5f24ce3]
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORKSPACE = REPO / "tests" / "data" / "workspace_basic.json"
TOKEN = "ann-secret"
CONNECTIONS = 32
TASK = "/api/agents/a_writer/files/task.md"
PUT_BODY = json.dumps({"content": "Watch the queue. " * 40})

RECORDED = {  # issue 29's figures: wrk, 32 connections, this 2-core machine, before item 1
    "GET": (4253.0, 22.0),
    "PUT": (1136.0, 50.0),
}


@dataclass(frozen=True)
class Load:
    requests_per_s: float
    p99_ms: float
    errors: int


def serve(root: Path, db: Path) -> tuple[subprocess.Popen[bytes], str]:
    server = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", "--workspace", str(WORKSPACE),
         "--db", str(db), "--port", "0"],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    assert server.stdout is not None
    url = server.stdout.readline().decode().strip().removeprefix("taskdesk: serving ")
    return server, url


def wrk(url: str, method: str, seconds: float) -> Load:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(f'wrk.method = "{method}"\n')
        script.write(f'wrk.headers["Authorization"] = "Bearer {TOKEN}"\n')
        if method == "PUT":
            script.write('wrk.headers["Content-Type"] = "application/json"\n')
            script.write(f"wrk.body = {json.dumps(PUT_BODY)}\n")
    out = subprocess.run(
        ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{seconds:g}s", "--latency", "-s", script.name,
         url + TASK],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    Path(script.name).unlink()
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)\b", out)
    assert p99 is not None, out
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    count = int(bad.group(1)) if bad else 0
    if errors:
        count += sum(int(n) for n in errors.groups())
    return Load(rate, float(p99.group(1)) * scale, count)


def threads(url: str, method: str, seconds: float) -> Load:
    """The fallback generator: one keep-alive connection per thread, as wrk keeps them."""
    host, port = url.removeprefix("http://").rsplit(":", 1)
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop = time.perf_counter() + seconds
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}

    def drive() -> None:
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        mine: list[float] = []
        while time.perf_counter() < stop:
            started = time.perf_counter()
            try:
                conn.request(method, TASK, body=PUT_BODY if method == "PUT" else None,
                             headers=headers)  # fmt: skip
                answer = conn.getresponse()
                answer.read()
                if answer.status != 200:
                    errors[0] += 1
            except OSError:
                errors[0] += 1
                conn.close()
                conn = http.client.HTTPConnection(host, int(port), timeout=10)
                continue
            mine.append((time.perf_counter() - started) * 1000)
        conn.close()
        with lock:
            latencies.extend(mine)

    workers = [threading.Thread(target=drive) for _ in range(CONNECTIONS)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    p99 = statistics.quantiles(latencies, n=100)[98] if len(latencies) > 100 else max(latencies)
    return Load(len(latencies) / seconds, p99, errors[0])


def measure(root: Path, label: str, seconds: float, tool: str) -> dict[str, Load]:
    with tempfile.TemporaryDirectory() as tmp:
        server, url = serve(root, Path(tmp) / "db.sqlite3")
        try:
            generate = wrk if tool == "wrk" else threads
            generate(url, "GET", 1.0)  # warm up: imports, caches, the first connections
            figures = {method: generate(url, method, seconds) for method in ("GET", "PUT")}
        finally:
            server.terminate()
            server.wait(timeout=15)
    for method, load in figures.items():
        rate, p99 = load.requests_per_s, load.p99_ms
        print(
            f"  {label:<22} {method}: {rate:8,.0f} req/s   p99 {p99:6.1f} ms   errors {load.errors}"
        )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--against", metavar="REV", help="also measure this revision's server")
    parser.add_argument("--rounds", type=int, default=2, help="alternations with --against")
    parser.add_argument("--threads", action="store_true", help="the Python generator, not wrk")
    args = parser.parse_args()
    tool = "wrk" if shutil.which("wrk") and not args.threads else "threads"
    print(f"{CONNECTIONS} connections, {args.seconds:g} s each, load from {tool}")
    for method, (rate, p99) in RECORDED.items():
        print(f"  {'recorded in issue 29':<22} {method}: {rate:8,.0f} req/s   p99 {p99:6.1f} ms")
    if not args.against:
        measure(REPO, "this tree", args.seconds, tool)
        return
    runs: dict[str, list[dict[str, Load]]] = {"now": [], "before": []}
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "archive", args.against], cwd=REPO, capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        # Alternated, so a change in the machine's load falls on both alike.
        for _ in range(args.rounds):
            runs["before"].append(measure(Path(tmp), args.against, args.seconds, tool))
            runs["now"].append(measure(REPO, "this tree", args.seconds, tool))
    for method in ("GET", "PUT"):
        now_rate = statistics.median(r[method].requests_per_s for r in runs["now"])
        before_rate = statistics.median(r[method].requests_per_s for r in runs["before"])
        now_p99 = statistics.median(r[method].p99_ms for r in runs["now"])
        before_p99 = statistics.median(r[method].p99_ms for r in runs["before"])
        print(
            f"  {method} medians: this tree {now_rate:,.0f} req/s p99 {now_p99:.1f} ms; "
            f"{args.against} {before_rate:,.0f} req/s p99 {before_p99:.1f} ms; "
            f"ratio {now_rate / before_rate:.2f}x req/s"
        )


if __name__ == "__main__":
    main()
