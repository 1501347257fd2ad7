"""Notes with their blast radius, on the big org: used-by, impact, and what saves cost now.

The 5,000-agent / 50,000-note workspace of ``scale_workspace.py``, with one org note (the
"hot" note) embedded by 1,000 agents, and embedding a second note (so 1,000 agents meet it
at hop 2). Every figure is printed beside its baseline measured in the same run:

- used-by of the hot note over HTTP, beside a Task GET (target ≤ 50 ms and ≤ 10×);
- impact of an edit of the hot note over HTTP (target ≤ 1 s);
- a Task save and a note save in the database, with the used-by index kept, beside the same
  save with its upkeep left out (today's cost; target ≤ 1.5×); the hot note's saves too.

Run: ``.venv/bin/python bench/bench_notes.py [--agents 5000] [--runs 7]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from scale_workspace import OPERATOR_TOKEN, ORG, Scale, generate

from app.core.models import OrgFile
from app.server import start_server
from app.server.app_factory import open_database
from app.server.callers import Caller

HOT = f"org/{ORG}/handbook-00000.md"
HOP_2 = f"org/{ORG}/handbook-00001.md"
EMBEDDERS = 1_000


def workspace(scale: Scale, out: Path) -> Path:
    import json

    data = generate(scale)
    for note in data["notes"]:
        if note["path"] == HOT:
            note["text"] += f"\n\n![[{HOP_2}]]\n"
    for agent in data["agents"][:EMBEDDERS]:
        agent["task"] += f"\n![[{HOT}]]\n"
    out.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
    return out


def median_ms(call: Callable[[], object], runs: int) -> float:
    call()  # warm
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def row(name: str, figure: float, baseline: float, base_name: str, target: str) -> None:
    ratio = figure / baseline if baseline else float("inf")
    print(
        f"{name:<44} {figure:9.1f} ms   {base_name:<28} {baseline:8.1f} ms   "
        f"{ratio:6.2f}×   {target}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=5_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    scale = Scale.of_agents(args.agents)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        path = workspace(scale, tmp / "big.json")
        db_path = tmp / "big.sqlite3"
        start = time.perf_counter()
        open_database(db_path, path).close()
        took = time.perf_counter() - start
        print(f"{scale.label()}: seeded with the used-by index in {took:.1f} s")
        saves(db_path, args.runs)
        with start_server(path, db_path) as server:
            over_http(server.url, args.runs)
            in_the_app(server.url, args.runs)
    return 0


def in_the_app(url: str, runs: int) -> None:
    """The impact of the hot note as the app gets it: read and decoded by the client (on the
    runner), then shown by the impact panel on the GUI thread (target ≤ 16 ms a turn)."""
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from app.client import TaskdeskClient
    from widgets.notes.impact_panel import ImpactPanel

    app = QApplication.instance() or QApplication([])
    with TaskdeskClient(url, OPERATOR_TOKEN, read_timeout=60) as client:
        text = (client.note(HOT).text or "") + "\nOne more."
        found: list[object] = []
        took = median_ms(lambda: found.append(client.note_impact(HOT, text)), 3)
        rows = client.note_impact(HOT, text)
    panel = ImpactPanel()
    panel.resize(1000, 600)
    panel.show()
    app.processEvents()

    def show() -> None:
        panel.show_rows(rows)

    def paint() -> None:
        panel.show_rows(rows)
        app.processEvents()

    print(f"in the app: {len(rows)} impact rows (client read and decode {took:.0f} ms, runner)")
    shown = median_ms(show, runs)
    row("impact panel shows the rows (GUI turn)", shown, 16.0, "one frame", "≤ 16 ms")
    row("…and paints them (GUI turn)", median_ms(paint, runs) - shown, 16.0, "one frame", "≤ 16 ms")
    panel.close()


def saves(db_path: Path, runs: int) -> None:
    """Each save in its own write transaction, with and without the index's upkeep."""
    db = open_database(db_path, None)
    by = Caller("u_op", "Olga", "operator")
    counter = iter(range(10**9))

    def task_save(upkeep: bool, agent_id: str) -> Callable[[], object]:
        def save() -> None:
            with db.write() as tx:
                tx.uses_deferred = not upkeep
                live = tx.task(agent_id, with_revisions=False)
                assert live is not None
                text = live.content + f" {next(counter)}"
                tx.save_task(agent_id, text, expected_version=None, by=by)

        return save

    def note_save(
        upkeep: bool, path: str, change: Callable[[str, int], str]
    ) -> Callable[[], object]:
        def save() -> None:
            with db.write() as tx:
                tx.uses_deferred = not upkeep
                live = tx.file(path)
                assert live is not None
                text = change(live.text or "", next(counter))
                tx.put_file(
                    OrgFile(path, "note", live.title, text, live.version, live.access), by=by
                )

        return save

    def prose(text: str, n: int) -> str:
        return text + f" {n}"

    def restructure(text: str, n: int) -> str:  # its embeds change: every user is re-expanded
        return text + f"\n![[org/{ORG}/handbook-{2 + n % 50:05d}.md]]"

    typical = f"org/{ORG}/handbook-00100.md"
    cases: list[tuple[str, Callable[[bool], Callable[[], object]], int, str]] = [
        ("Task save", lambda on: task_save(on, "a00001"), runs, "≤ 1.5×"),
        ("note save (1 user)", lambda on: note_save(on, typical, prose), runs, "≤ 1.5×"),
        ("hot note save, prose", lambda on: note_save(on, HOT, prose), runs, "≤ 1.5×"),
        ("hot note save, embeds changed", lambda on: note_save(on, HOT, restructure), 3, "exact"),
    ]
    try:
        print(f"saves, in the database (median of {runs} runs):")
        for name, make, count, target in cases:
            kept = median_ms(make(True), count)
            base = median_ms(make(False), count)
            row(f"{name}, index kept", kept, base, f"{name.split(',')[0]}, no upkeep", target)
    finally:
        db.close()


def over_http(url: str, runs: int) -> None:
    with requests.Session() as session:
        session.headers["Authorization"] = f"Bearer {OPERATOR_TOKEN}"

        def get(path: str) -> Callable[[], object]:
            def call() -> None:
                answer = session.get(url + path, timeout=60)
                assert answer.status_code == 200, answer.text

            return call

        used_by = session.get(f"{url}/api/notes/{HOT}/used-by", timeout=60).json()
        hops = sorted({a["hop"] for a in used_by["agents"]})
        rows = len(used_by["agents"])
        print(f"over HTTP (median of {runs}); the hot note: {rows} rows, hops {hops}")
        task_get = median_ms(get("/api/agents/a00001/files/task.md"), runs)
        for name, path in (("used-by of the hot note", HOT), ("used-by of its hop-2 note", HOP_2)):
            took = median_ms(get(f"/api/notes/{path}/used-by"), runs)
            row(name, took, task_get, "Task GET", "≤ 50 ms, ≤ 10×")
        live = session.get(f"{url}/api/notes/{HOT}", timeout=60).json()

        def impact(text: str) -> Callable[[], object]:
            def call() -> None:
                answer = session.post(
                    f"{url}/api/notes/{HOT}/impact", json={"text": text}, timeout=60
                )
                assert answer.status_code == 200, answer.text

            return call

        prose = impact(live["text"] + "\nOne more.")
        embeds = impact(live["text"] + f"\n![[org/{ORG}/handbook-00002.md]]")
        for name, call in (("impact of a prose edit", prose), ("impact, embeds changed", embeds)):
            row(f"{name} of the hot note", median_ms(call, 3), task_get, "Task GET", "≤ 1,000 ms")


if __name__ == "__main__":
    raise SystemExit(main())
