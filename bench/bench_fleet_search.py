"""Org search over the big org's 5,000 Tasks: the answer written as bytes from kept lines
beside the way it was built before (a dict a hit, encoded by orjson), same texts, same run.

Both writers answer the same queries over the same kept texts (lower-cased once, as the
server keeps them), interleaved round by round; medians and the load are printed. Then the
same queries over loopback HTTP to ``taskdesk serve`` in its own process: the server's own
time from each answer's ``Server-Timing`` header (what the targets are about) beside the
whole HTTP wall time (which adds sending and the client reading the answer), and a GET of
/api/me for scale. Last, a restarted server's first request, a prompt search.

Run: `.venv/bin/python bench/bench_fleet_search.py [--agents 5000] [--rounds 9]`.
Target (issue 26): search in=task <= 100 ms server time, in=prompt <= 1 s (server time).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import orjson  # noqa: E402
import requests  # noqa: E402
from scale_workspace import OPERATOR_TOKEN, Scale, generate  # noqa: E402

from app.core.fleet_rows import LineSearch  # noqa: E402
from app.server.fleet_search import SearchableText, agent_entry, search_body  # noqa: E402

QUERIES = ("zebra", "escalate always", "queue")  # no agent, a third, every agent


def dicts_then_orjson(kept: list[tuple[str, str, SearchableText]], search: LineSearch) -> bytes:
    """The answer as the route built it before: a dict a hit, the whole encoded at the end."""
    agents = []
    for agent_id, name, text in kept:
        if not search.may_hit(text.text, text.lowered):
            continue
        matches = search.lines(text.text, text.lowered, text.starts())
        if matches:
            agents.append({"id": agent_id, "name": name, "matches": matches})
    return orjson.dumps({"agents": agents})


def written(kept: list[tuple[str, str, SearchableText]], search: LineSearch) -> bytes:
    entries = []
    for agent_id, name, text in kept:
        matches = text.encoded_matches(search)
        if matches:
            entries.append(agent_entry(agent_id, name, matches))
    return search_body(entries)


def median_ms(times: list[float]) -> float:
    return statistics.median(times) * 1000


def writers(tasks: list[tuple[str, str, str]], rounds: int) -> None:
    kept = [(a, n, SearchableText(t)) for a, n, t in tasks]
    for query in QUERIES:
        search = LineSearch(query, regex=False)
        first = time.perf_counter()
        ours = written(kept, search)  # the first search encodes the lines it hits
        first = time.perf_counter() - first
        assert ours == dicts_then_orjson(kept, search), query
        hits = ours.count(b'{"line":')
        times: dict[str, list[float]] = {"before": [], "bytes": []}
        for _ in range(rounds):
            for label, fn in (("before", dicts_then_orjson), ("bytes", written)):
                started = time.perf_counter()
                fn(kept, search)
                times[label].append(time.perf_counter() - started)
        before, after = median_ms(times["before"]), median_ms(times["bytes"])
        print(
            f"writer “{query}” ({hits:,} hit lines): before {before:7.1f} ms  bytes"
            f" {after:7.1f} ms (first {first * 1000:.1f})  x{before / after:4.1f}"
            f"   load {os.getloadavg()[0]:.2f}",
            flush=True,
        )


class Timed:
    """One request's figures: the whole HTTP wall time and the server's own (``Server-Timing``)."""

    def __init__(self, get: requests.Session, url: str, params: dict[str, str]) -> None:
        started = time.perf_counter()
        answer = get.get(url, params=params, timeout=120)
        self.wall = time.perf_counter() - started
        answer.raise_for_status()
        self.size = len(answer.content)
        found = re.fullmatch(r"app;dur=([\d.]+)", answer.headers.get("Server-Timing", ""))
        self.server = float(found.group(1)) / 1000 if found else float("nan")


def medians(
    get: requests.Session, url: str, params: dict[str, str], rounds: int
) -> tuple[Timed, Timed]:
    """The first request (its hit lines encoded for the first time) and one holding the
    median server and wall times of ``rounds`` more (the lines kept)."""
    first = Timed(get, url, params)
    runs = [Timed(get, url, params) for _ in range(rounds)]
    middle = runs[0]
    middle.wall = statistics.median(r.wall for r in runs)
    middle.server = statistics.median(r.server for r in runs)
    return first, middle


def line(label: str, took: Timed, target_ms: float) -> None:
    verdict = "meets" if took.server * 1000 <= target_ms else "MISSES"
    print(
        f"http {label}: server {took.server * 1000:7.1f} ms  (whole HTTP {took.wall * 1000:7.1f}"
        f" ms, {took.size:,} B)  target server <= {target_ms:,.0f} ms: {verdict}"
        f"   load {os.getloadavg()[0]:.2f}",
        flush=True,
    )


def serve(workspace: Path, db: Path) -> tuple[subprocess.Popen[str], str]:
    """``taskdesk serve`` in its own process, as in real use: the client reading a big answer
    then takes none of the server's time."""
    command = [sys.executable, "-m", "app", "serve", "--workspace", str(workspace)]
    proc = subprocess.Popen(
        [*command, "--db", str(db), "--port", "0"],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    return proc, proc.stdout.readline().strip().removeprefix("taskdesk: serving ")


def over_http(url: str, rounds: int) -> None:
    """in=task on a server that has answered nothing yet, then in=prompt (its first prompt
    search expands every agent; the Task texts are kept by then)."""
    get = requests.Session()
    get.headers.update({"Authorization": f"Bearer {OPERATOR_TOKEN}"})
    search = url + "/api/org/search"
    _, me = medians(get, url + "/api/me", {}, rounds)
    print(f"http /api/me: server {me.server * 1000:.1f} ms  (whole HTTP {me.wall * 1000:.1f} ms)")
    line("first search (reads the Tasks) in=task “zebra”", Timed(get, search, {"q": "zebra"}), 100)
    for query in QUERIES:
        first, kept = medians(get, search, {"q": query}, rounds)
        line(f"in=task “{query}”, its lines first hit", first, 100)
        line(f"in=task “{query}”, median of {rounds} more", kept, 100)
    prompt = {"q": "escalate always", "in": "prompt"}
    line("in=prompt cold (Tasks kept)", Timed(get, search, prompt), 1000)
    line(f"in=prompt warm, median of {rounds}", medians(get, search, prompt, rounds)[1], 1000)


def cold_prompt(url: str, rounds: int) -> None:
    """in=prompt as the first request after a restart: every Task read, every prompt expanded."""
    get = requests.Session()
    get.headers.update({"Authorization": f"Bearer {OPERATOR_TOKEN}"})
    prompt = {"q": "escalate always", "in": "prompt"}
    search = url + "/api/org/search"
    line("in=prompt cold, first request after a restart", Timed(get, search, prompt), 1000)
    line(f"in=prompt warm, median of {rounds}", medians(get, search, prompt, rounds)[1], 1000)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--agents", type=int, default=5_000)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    workspace = generate(Scale.of_agents(args.agents))
    tasks = sorted((a["id"], a["name"], a["task"]) for a in workspace["agents"])
    writers(tasks, args.rounds)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "workspace.json"
        path.write_bytes(orjson.dumps(workspace))
        db = Path(folder) / "db.sqlite3"
        for measure in (over_http, cold_prompt):  # the second on a restarted server
            server, url = serve(path, db)
            try:
                measure(url, args.rounds)
            finally:
                server.terminate()
                server.wait()


if __name__ == "__main__":
    main()
