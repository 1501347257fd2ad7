"""Fleet benchmark on the big org (5,000 agents, 50,000 notes): each figure beside a baseline
measured in the same run, with the ratio.

Figures and their baselines:
- fleet table shown (model filled, proxy sorted, view laid out): a C++ QSortFilterProxyModel
  over a QStandardItemModel of the same cells;
- sort and filter per key: the same C++ proxy sorting the same column and filtering on a
  fixed string;
- health, search (``in=task``, ``in=prompt``), a change set of 1,000 Tasks applied and
  reverted: server time over loopback HTTP, beside a GET of /api/me (the round trip);
- the preview of 1,000 Tasks built off the GUI thread: its time, and the longest stall of
  the GUI thread meanwhile (a 1 ms timer's longest gap), beside the same timer with nothing
  running.

Run: `.venv/bin/python bench/bench_fleet.py [--agents 5000] [--changes 1000]`.
Targets (issue 26): table shown <= 1 s; sort and filter <= 16 ms a key; search in=task
<= 100 ms, in=prompt <= 1 s; 1,000-Task preview <= 2 s without a stall over 16 ms;
applied <= 2 s; reverted <= 2 s.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import requests  # noqa: E402
from scale_workspace import OPERATOR_TOKEN, Scale, generate  # noqa: E402

AUTH = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}


def timed(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    """The median seconds of ``repeat`` calls, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def line(name: str, seconds: float, baseline: float, target: str) -> None:
    ratio = seconds / baseline if baseline else float("inf")
    print(
        f"{name:<42} {seconds * 1000:9.1f} ms   baseline {baseline * 1000:8.1f} ms"
        f"   x{ratio:6.1f}   target {target}",
        flush=True,
    )


def server_figures(url: str, changes: int) -> None:
    get = requests.Session()
    get.headers.update(AUTH)
    me, _ = timed(lambda: get.get(url + "/api/me", timeout=60), 5)
    cold, answer = timed(lambda: get.get(url + "/api/org/health", timeout=300), 1)
    rows = answer.json()["agents"]
    line(f"health, cold ({len(rows):,} rows)", cold, me, "(first after a start)")
    warm, _ = timed(lambda: get.get(url + "/api/org/health", timeout=120))
    line("health, warm", warm, me, "(shown <= 1 s)")
    for query in ("zebra", "escalate always", "queue"):  # none, a third, every agent
        in_task, found = timed(
            lambda q=query: get.get(url + "/api/org/search", params={"q": q}, timeout=60)
        )
        hits = len(found.json()["agents"])
        line(f"search in=task “{query}” ({hits:,} hit)", in_task, me, "<= 100 ms")
    search = {"q": "escalate always"}
    in_prompt, _ = timed(
        lambda: get.get(url + "/api/org/search", params={**search, "in": "prompt"}, timeout=120),
        1,
    )
    line("search in=prompt", in_prompt, me, "<= 1 s")
    agents = [r["id"] for r in rows[:changes]]
    tasks = {a: get.get(f"{url}/api/agents/{a}/files/task.md", timeout=60).json() for a in agents}
    body = {
        "title": "Bench",
        "changes": [
            {
                "agent_id": a,
                "expected_version": t["version"],
                "content": t["content"] + "\nOne more rule.\n",
            }
            for a, t in tasks.items()
        ],
    }
    applied, made = timed(lambda: get.post(url + "/api/org/change-sets", json=body, timeout=120), 1)
    assert made.status_code == 201, made.text[:200]
    line(f"change set applied ({changes:,} Tasks)", applied, me, "<= 2 s")
    set_id = made.json()["id"]
    reverted, back = timed(
        lambda: get.post(f"{url}/api/org/change-sets/{set_id}/revert", timeout=120), 1
    )
    assert back.status_code == 201, back.text[:200]
    line(f"change set reverted ({changes:,} Tasks)", reverted, me, "<= 2 s")


def table_figures(url: str) -> None:
    from PySide6.QtCore import QSortFilterProxyModel, Qt
    from PySide6.QtGui import QStandardItem, QStandardItemModel
    from PySide6.QtWidgets import QApplication, QTableView

    from app.client import TaskdeskClient
    from widgets.fleet.fleet_panel import FleetPanel
    from widgets.fleet.fleet_table_model import COLUMNS

    app = QApplication.instance() or QApplication(sys.argv[:1])
    with TaskdeskClient(url, OPERATOR_TOKEN, read_timeout=120) as client:
        rows = client.org_health()

    def ours() -> FleetPanel:
        panel = FleetPanel()
        panel.resize(1100, 700)
        panel.show_rows(rows)
        panel.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        panel.show()
        app.processEvents()
        return panel

    def baseline() -> QTableView:
        model = QStandardItemModel(len(rows), len(COLUMNS))
        for r, row in enumerate(rows):
            cells = (row.name, row.guild_id, row.task_bytes, row.embedded_bytes, row.broken_embeds)
            for c, value in enumerate(cells):
                item = QStandardItem()
                item.setData(value, Qt.ItemDataRole.DisplayRole)
                model.setItem(r, c, item)
        proxy = QSortFilterProxyModel()
        proxy.setSourceModel(model)
        view = QTableView()
        view.setModel(proxy)
        view.setSortingEnabled(True)
        view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        view.resize(1100, 700)
        view.show()
        app.processEvents()
        view._keep = (model, proxy)  # type: ignore[attr-defined]
        return view

    shown, panel = timed(ours, 1)
    base_shown, view = timed(baseline, 1)
    line(f"fleet table shown ({len(rows):,} rows)", shown, base_shown, "<= 1 s")
    proxy = view.model()
    flip = [Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder]
    ours_sort, _ = timed(lambda: panel.table.sortByColumn(3, flip.reverse() or flip[0]), 5)
    base_sort, _ = timed(lambda: view.sortByColumn(3, flip.reverse() or flip[0]), 5)
    line("sort by embedded KB", ours_sort, base_sort, "<= 16 ms")
    words = ["a", "ag", "age", "agen", "agent"]
    ours_filter = statistics.median(timed(lambda w=w: panel.proxy.set_text(w), 1)[0] for w in words)
    base_filter = statistics.median(
        timed(lambda w=w: proxy.setFilterFixedString(w), 1)[0]  # type: ignore[attr-defined]
        for w in words
    )
    line("filter, per key", ours_filter, base_filter, "<= 16 ms")


def preview_figures(url: str, changes: int) -> None:
    from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from app.client import TaskdeskClient
    from app.core.change_plan import replace_edit
    from app.desk.change_set_flow import ChangeSetFlow
    from app.desk.runner import Runner

    _app = QApplication.instance() or QApplication(sys.argv[:1])  # kept: Qt needs it alive

    def longest_gap(run: Callable[[Callable[[], None]], None]) -> tuple[float, float]:
        """Runs ``run(done)`` under a 1 ms timer; (seconds until done, longest gap)."""
        loop, clock, gaps = QEventLoop(), QElapsedTimer(), [0]
        last = [0]
        timer = QTimer()
        timer.setInterval(1)

        def tick() -> None:
            now = clock.elapsed()
            gaps[0] = max(gaps[0], now - last[0])
            last[0] = now

        timer.timeout.connect(tick)
        clock.start()
        timer.start()
        run(loop.quit)
        loop.exec()
        timer.stop()
        return clock.elapsed() / 1000, gaps[0] / 1000

    # As the app runs: no automatic collection on worker threads (app/desk/gc_pauses.py).
    gc.collect()
    gc.freeze()
    gc.disable()
    idle_time, idle_gap = longest_gap(lambda done: QTimer.singleShot(300, done))
    with TaskdeskClient(url, OPERATOR_TOKEN, read_timeout=120) as client:
        agents = [row.id for row in client.org_health()[:changes]]
        runner = Runner()
        flow = ChangeSetFlow(runner, client, "o_big")
        built: list[Any] = []

        def start(done: Callable[[], None]) -> None:
            flow.preview_ready.connect(lambda rows: (built.append(rows), done()))
            flow.failed.connect(lambda said: (print(said), done()))
            flow.preview(agents, replace_edit("queue", "backlog"))

        took, gap = longest_gap(start)
        runner.shutdown(10_000)
    rows = built[0] if built else []
    line(f"preview built ({len(rows):,} Tasks changed)", took, idle_time, "<= 2 s")
    line("  longest GUI stall meanwhile", gap, idle_gap, "<= 16 ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--agents", type=int, default=5_000)
    parser.add_argument("--changes", type=int, default=1_000)
    args = parser.parse_args()
    from app.server import start_server

    scale = Scale.of_agents(args.agents)
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder) / "workspace.json"
        workspace.write_text(json.dumps(generate(scale)), encoding="utf-8")
        started = time.perf_counter()
        with start_server(workspace, Path(folder) / "db.sqlite3") as server:
            print(f"{scale.label()}: seeded in {time.perf_counter() - started:.1f} s", flush=True)
            server_figures(server.url, args.changes)
            table_figures(server.url)
            preview_figures(server.url, args.changes)


if __name__ == "__main__":
    main()
