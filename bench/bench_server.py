"""The reference server's Task GET and PUT under wrk, beside a bare Starlette floor, same run.

Rows (issue 30's table), each beside its baseline measured in this run:
  - Task GET, 8 KB Task, 8 and 32 connections, against a bare Starlette + uvicorn route
    answering the very same body (same HTTP implementation, h11, as the server);
  - Task GET with 50 revisions (~429 KB body) at 32 connections, against the same-size floor;
  - Task PUT, new text each time, 32 connections, against a bare route that reads the JSON
    body and answers a body of the PUT answer's size, and against a raw SQLite loop of saves
    with the server's own schema and queries;
  - the revisions-without-text answer (``?revisions=summary``) with 50 revisions, which is what
    the app reads where the server offers it.
The server runs as ``taskdesk serve`` in its own process, as in real use. Each wrk run is
short (DURATION seconds) and each row is the median of ROUNDS runs of each, taken in turn;
the machine is shared, so read the ratios, not the absolute figures.

Run: .venv/bin/python bench/bench_server.py [seconds] [BEFORE_TREE]
BEFORE_TREE, a checkout of the code before (e.g. ``git archive <commit> | tar -x -C DIR``),
adds each row's figure from that code, measured in the same run, interleaved.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import requests

REPO = Path(__file__).resolve().parents[1]
WORKSPACE = REPO / "tests" / "data" / "workspace_basic.json"
TOKEN = "ann-secret"
AGENT = "a_scout"
SMALL_AGENT = "a_writer"
TASK_PATH = f"/api/agents/{AGENT}/files/task.md"
SMALL_PATH = f"/api/agents/{SMALL_AGENT}/files/task.md"
DURATION = int(sys.argv[1]) if len(sys.argv) > 1 else 3
ROUNDS = 3
"""Runs of each server and of its floor, taken in turn; each row gives their medians."""
BEFORE_TREE = Path(sys.argv[2]) if len(sys.argv) > 2 else None

# Recorded on main before this work (issue 30), same machine: req/s, p99 ms.
RECORDED = {
    "GET 8 KB, 8 conns": "2,224 req/s",
    "GET 8 KB, 32 conns": "2,159 req/s p99 32 ms",
    "GET 50 revisions, 32 conns": "628 req/s p99 124 ms",
    "PUT new text, 32 conns": "671 req/s p99 105 ms",
}

FLOOR_APP = textwrap.dedent(
    """
    import sys, uvicorn
    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Route
    body = open(sys.argv[1], "rb").read()
    put_body = open(sys.argv[2], "rb").read()
    async def get(request):
        return Response(body, media_type="application/json")
    async def put(request):
        await request.body()
        return Response(put_body, media_type="application/json")
    app = Starlette(routes=[Route("/get", get), Route("/put", put, methods=["PUT"])])
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[3]), log_level="warning",
                access_log=False, http="h11", ws="none")
    """
)

PUT_LUA = textwrap.dedent(
    """
    local n = 0
    local filler = string.rep("Keep the runbook short and current. ", 228)
    request = function()
      n = n + 1
      local text = filler .. tostring(n) .. "-" .. tostring(math.random(1e9))
      local headers = {["Content-Type"] = "application/json"}
      headers["Authorization"] = "Bearer ann-secret"
      return wrk.format("PUT", nil, headers, '{"content":"' .. text .. '"}')
    end
    """
)


def task_text(seed: int) -> str:
    line = f"Step {seed}: keep the runbook short, current and in the agent's own words.\n"
    return (line * (8192 // len(line) + 1))[:8192]


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(tmp: Path, tree: Path = REPO) -> tuple[subprocess.Popen[str], str]:
    workspace = json.loads(WORKSPACE.read_text())
    for agent in workspace["agents"]:
        if agent["id"] in (AGENT, SMALL_AGENT):
            agent["task"] = task_text(0)
            agent.pop("saves", None)
    ws = tmp / "workspace.json"
    ws.write_text(json.dumps(workspace))
    env = dict(os.environ, PYTHONPATH=str(tree))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app",
            "serve",
            "--workspace",
            str(ws),
            "--db",
            str(tmp / "db"),
            "--port",
            "0",
        ],
        cwd=tree,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    url = line.strip().removeprefix("taskdesk: serving ")
    return proc, url


def start_floor(tmp: Path, body: bytes, put_body: bytes) -> tuple[subprocess.Popen[str], str]:
    (tmp / "floor.py").write_text(FLOOR_APP)
    (tmp / "body").write_bytes(body)
    (tmp / "put_body").write_bytes(put_body)
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            str(tmp / "floor.py"),
            str(tmp / "body"),
            str(tmp / "put_body"),
            str(port),
        ],
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            requests.get(url + "/get", timeout=1)
            return proc, url
        except requests.ConnectionError:
            time.sleep(0.05)
    raise RuntimeError("the floor server did not start")


def wrk(url: str, conns: int, *, script: Path | None = None) -> tuple[float, float]:
    """(requests per second, p99 latency in ms) of one wrk run."""
    cmd = ["wrk", "-t2", f"-c{conns}", f"-d{DURATION}s", "--latency", "-H"]
    cmd += [f"Authorization: Bearer {TOKEN}"]
    if script is not None:
        cmd += ["-s", str(script)]
    out = subprocess.run([*cmd, url], capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    assert p99 is not None, out
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise RuntimeError(f"wrk saw {errors.group(1)} failed answers at {url}")
    return rate, float(p99.group(1)) * scale


def sqlite_saves_per_second(tmp: Path) -> float:
    """Saves per second of the server's own save query on its schema, no HTTP, one thread."""
    from app.server.app_factory import open_database

    db = open_database(tmp / "raw.sqlite3", WORKSPACE)
    with db.read() as tx:
        operator = tx.caller_for_token(TOKEN)  # the operator the PUT rows save as
    assert operator is not None and operator.is_operator
    count, started = 0, time.perf_counter()
    while time.perf_counter() - started < DURATION / 2:
        with db.write() as tx:
            tx.save_task(AGENT, task_text(count + 1), expected_version=None, by=operator)
        count += 1
    elapsed = time.perf_counter() - started
    db.close()
    return count / elapsed


def interleaved(
    ours: list[Callable[[], tuple[float, float]]], floor: Callable[[], tuple[float, float]]
) -> tuple[list[tuple[float, float]], tuple[float, float]]:
    """Each server's and the floor's median over ROUNDS runs taken in turn: the machine's
    load moves from one run to the next, so no figure is from a moment of its own."""
    runs: list[list[tuple[float, float]]] = [[] for _ in range(len(ours) + 1)]
    for _ in range(ROUNDS):
        for n, measure in enumerate([*ours, floor]):
            runs[n].append(measure())
    medians = [
        (statistics.median(r for r, _ in each), statistics.median(p for _, p in each))
        for each in runs
    ]
    return medians[:-1], medians[-1]


def row(name: str, ours: list[tuple[float, float]], floor: tuple[float, float]) -> None:
    """One table row: after (and before, when measured), the floor, the ratios."""
    figures = " / ".join(f"{r:,.0f} req/s p99 {p:.1f} ms" for r, p in ours)
    ratios = " / ".join(f"{r / floor[0]:.2f}×" for r, _ in ours)
    print(
        f"| {name} | {figures} | floor {floor[0]:,.0f} req/s p99 {floor[1]:.1f} ms | {ratios} |"
        f" {RECORDED.get(name, '—')} |",
        flush=True,
    )


def seeded_server(
    tmp: Path, tree: Path, session: requests.Session
) -> tuple[subprocess.Popen[str], str]:
    """A server with an 8 KB Task (SMALL_AGENT) and one with 50 revisions of 8 KB (AGENT)."""
    server, url = start_server(tmp, tree)
    for n in range(1, 51):
        session.put(url + TASK_PATH, json={"content": task_text(n)}, timeout=10).raise_for_status()
    return server, url


def main() -> None:
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {TOKEN}"
    trees = [REPO] if BEFORE_TREE is None else [BEFORE_TREE, REPO]
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        # Each server its own database: two processes on one SQLite file would meet each
        # other's locks, which no real server does.
        folders = [tmp / f"server{n}" for n in range(len(trees))]
        for folder in folders:
            folder.mkdir()
        servers = [seeded_server(f, tree, session) for f, tree in zip(folders, trees, strict=True)]
        urls = [url for _, url in servers]
        small = session.get(urls[-1] + SMALL_PATH, timeout=10).content
        big = session.get(urls[-1] + TASK_PATH, timeout=10).content
        (tmp / "put.lua").write_text(PUT_LUA)
        floor, floor_url = start_floor(tmp, small, big)
        try:
            print(
                f"load before: {os.getloadavg()[0]:.2f}; bodies {len(small):,} and {len(big):,} B"
            )
            which = "before / after" if BEFORE_TREE else "after"
            print(f"| figure | Taskdesk ({which}) | floor, same run | ratio | recorded on main |")
            print("|---|---|---|---|---|")
            for conns in (8, 32):
                row(
                    f"GET 8 KB, {conns} conns",
                    *interleaved(
                        [partial(wrk, url + SMALL_PATH, conns) for url in urls],
                        partial(wrk, floor_url + "/get", conns),
                    ),
                )
            floor.terminate()
            floor.wait()
            floor, floor_url = start_floor(tmp, big, big)
            row(
                "GET 50 revisions, 32 conns",
                *interleaved(
                    [partial(wrk, url + TASK_PATH, 32) for url in urls],
                    partial(wrk, floor_url + "/get", 32),
                ),
            )
            put = tmp / "put.lua"
            ours, put_floor = interleaved(
                [partial(wrk, url + TASK_PATH, 32, script=put) for url in urls],
                partial(wrk, floor_url + "/put", 32, script=put),
            )
            row("PUT new text, 32 conns", ours, put_floor)
            summary = urls[-1] + TASK_PATH + "?revisions=summary"
            brief = session.get(summary, timeout=10).content
            floor.terminate()
            floor.wait()
            floor, floor_url = start_floor(tmp, brief, brief)
            row(
                f"GET 50 revisions without text ({len(brief):,} B), 32 conns",
                *interleaved([partial(wrk, summary, 32)], partial(wrk, floor_url + "/get", 32)),
            )
            raw = sqlite_saves_per_second(tmp)
            ratios = " / ".join(f"{r / raw:.2f}×" for r, _ in ours)
            print(
                f"| PUT beside a raw SQLite loop of saves | | {raw:,.0f} saves/s | {ratios}"
                " | 0.06× |"
            )
            print(f"load after: {os.getloadavg()[0]:.2f}", flush=True)
        finally:
            floor.terminate()
            floor.wait()
            for server, _ in servers:
                server.terminate()
                server.wait()


if __name__ == "__main__":
    main()
