"""Proposals: opening a review of a 256 KB proposal on a moved base, and the org's queue.

Each figure is printed beside its baseline, measured in the same run:
- the review's work off the GUI thread (rebase, raw and result diffs, the effective diff)
  beside the compare view's own work on the same pair (build_diff base → proposal); the
  issue's target is at most 2x;
- the longest GUI-thread stall while the review window takes the finished models and paints
  (target 16 ms), beside the same heartbeat with nothing to do;
- the queue of 1,000 open proposals over 5,000 agents: listed (HTTP + parse) and put in the
  table model (target 100 ms), beside listing the org's 5,000 agents.

Run: .venv/bin/python bench/bench_proposals.py
"""

from __future__ import annotations

import gc
import itertools
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, Qt, QTimer
from PySide6.QtWidgets import QApplication
from task_words import WORDS  # bench/ is on the path when a script runs

from app.client import TaskdeskClient
from app.core.diff_model import build_diff
from app.core.models import Reader
from app.core.proposal_effect import effective_change
from app.core.proposal_review import Decision, HunkDecision, review_basis, review_result
from app.core.task_shape import check_task_shape
from app.server import start_server
from app.server.callers import Caller
from app.server.database import ServerDatabase
from app.server.proposal_records import add_proposal

REVIEW_ROUNDS = 15


def markdown_line(rng: random.Random) -> str:
    """Lines as a Task has them (as bench_diff makes them)."""
    roll = rng.random()
    if roll < 0.25:
        return "\n"
    words = " ".join(rng.choices(WORDS, k=rng.randint(4, 14)))
    if roll < 0.55:
        return f"- {words}\n"
    if roll < 0.6:
        return f"## {words}\n"
    return f"{words.capitalize()}.\n"


def make_text(size: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    lines: list[str] = []
    total = 0
    while total < size:
        line = markdown_line(rng)
        lines.append(line)
        total += len(line)
    return lines


def changed_copy(lines: list[str], fraction: float, seed: int) -> list[str]:
    rng = random.Random(seed)
    copy = list(lines)
    for index in rng.sample(range(len(copy)), max(1, int(len(copy) * fraction))):
        copy[index] = markdown_line(rng)
    return copy


def best_ms(action: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def longest_stall_ms(action: Callable[[], object]) -> tuple[float, float]:
    """Longest gap between ticks of a 1 ms timer on the GUI thread while ``action`` runs
    there and the window paints (wall, and the GUI thread's CPU time), as bench_diff."""
    loop = QEventLoop()
    ticks: list[tuple[float, float]] = []
    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(1)
    timer.timeout.connect(lambda: ticks.append((time.perf_counter(), time.thread_time())))
    timer.start()
    QTimer.singleShot(30, action)
    QTimer.singleShot(250, loop.quit)
    loop.exec()
    timer.stop()
    wall = max(b[0] - a[0] for a, b in itertools.pairwise(ticks))
    cpu = max(b[1] - a[1] for a, b in itertools.pairwise(ticks))
    return wall * 1000, cpu * 1000


def show_stall(label: str, stall: tuple[float, float]) -> None:
    print(f"  {label:<60} {stall[0]:9.1f} ms wall, {stall[1]:6.1f} ms cpu")


def show(label: str, ms: float, note: str = "") -> None:
    print(f"  {label:<60} {ms:9.1f} ms  {note}")


def review_case(app: QApplication) -> None:
    print("A review of a 256 KB proposal on a moved base")
    base_lines = make_text(256 * 1024, seed=1)
    base = "".join(base_lines)
    live = "".join(changed_copy(base_lines, 0.01, seed=2))  # someone saved meanwhile
    proposal = "".join(changed_copy(base_lines, 0.02, seed=3))

    def compare_alone() -> object:
        return build_diff(base, proposal)

    def review_work(accept_all: bool) -> Callable[[], tuple[Any, ...]]:
        def work() -> tuple[Any, ...]:
            basis = review_basis(base, live, proposal, base_version=1, live_version=2)
            accept = HunkDecision(Decision.ACCEPT)
            decisions = {h.key: accept for h in basis.hunks} if accept_all else {}
            result = review_result(basis, decisions)
            effect = effective_change(
                live,
                result.text,
                org_id="o_bench",
                reader=Reader("a_bench", "guild_bench"),
                lookup=lambda _path: None,
                task_path="org/o_bench/agents/a_bench/task.md",
                with_shape=False,  # the desk checks the shape next, on its own job
            )
            result_diff = build_diff(live, result.text)
            same = (effect.before, effect.after) == (live, result.text)
            effect_diff = result_diff if same else build_diff(effect.before, effect.after)
            return basis, result, result_diff, effect_diff

        return work

    def shape_after() -> object:
        return check_task_shape(proposal).advice

    # Interleaved, medians: a busy spell of the shared machine hits all three alike.
    runs = {"compare": compare_alone, "open": review_work(False), "accepted": review_work(True)}
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(REVIEW_ROUNDS):
        for name, action in runs.items():
            start = time.perf_counter()
            action()
            times[name].append((time.perf_counter() - start) * 1000)
    baseline, opened, accepted = (statistics.median(times[name]) for name in runs)
    show("baseline: the compare view's diff, base → proposal", baseline, "(median)")
    basis, result, result_diff, _effect_diff = review_work(True)()
    note = f"{opened / baseline:.2f}x (target 2x); {len(basis.hunks)} hunks, "
    note += f"{len(basis.unplaced())} can't be placed"
    show("review opened (nothing decided yet): rebase, raw + effective", opened, note)
    show(
        "review with every hunk accepted: the same, on the rebased result",
        accepted,
        f"{accepted / baseline:.2f}x",
    )
    shape_ms = best_ms(shape_after, 1)
    show("then, on its own job: the shape check of the result", shape_ms, "(existing check)")

    from widgets.versions.diff_view import DiffView

    views = [DiffView() for _ in range(2)]
    for view in views:
        view.resize(1000, 700)
        view.show()
    gc.collect()
    gc.freeze()
    show_stall("heartbeat: longest stall, nothing to do", longest_stall_ms(lambda: None))
    # The review window lays out the shown tab's view only; another takes its model when
    # its tab is shown (review_window._show_pending): one 256 KB view per turn.
    show_stall(
        "heartbeat: the review opens, its Proposal view + paint (target 16)",
        longest_stall_ms(lambda: views[0].set_model(basis.raw, base, proposal)),
    )
    show_stall(
        "heartbeat: the Result tab shown, its view + paint (target 16)",
        longest_stall_ms(lambda: views[1].set_model(result_diff, live, result.text)),
    )
    gc.unfreeze()
    for view in views:
        view.deleteLater()
    app.processEvents()


def agent_entry(a: int) -> dict[str, str]:
    return {
        "id": f"a{a:05d}",
        "name": f"Agent {a}",
        "guild": f"g{a % 200}",
        "task": f"# Agent {a}\n\nWatch queue {a}.\n",
    }


def queue_case() -> None:
    print("The org's queue: 1,000 open proposals over 5,000 agents")
    rng = random.Random(5)
    with tempfile.TemporaryDirectory() as folder:
        workspace = {
            "org": {"id": "o_bench", "name": "Bench"},
            "guilds": [{"id": f"g{g}", "name": f"Guild {g}"} for g in range(200)],
            "people": [
                {"id": "u_op", "name": "Op", "type": "operator", "token": "op-secret"},
                {"id": "u_mem", "name": "Mem", "type": "member", "token": "mem-secret"},
            ],
            "agents": [
                {
                    "id": f"a{a:05d}",
                    "name": f"Agent {a}",
                    "guild": f"g{a % 200}",
                    "task": f"# Agent {a}\n\nWatch queue {a}.\n",
                }
                for a in range(5_000)
            ],
            "notes": [],
        }
        path = Path(folder) / "workspace.json"
        path.write_text(json.dumps(workspace), encoding="utf-8")
        db_path = Path(folder) / "db.sqlite3"
        with start_server(path, db_path) as server:
            db = ServerDatabase(db_path)
            member = Caller("u_mem", "Mem", "member")
            with db.write() as tx:
                for n in range(1_000):
                    agent = f"a{rng.randrange(5_000):05d}"
                    add_proposal(
                        tx.conn,
                        agent_id=agent,
                        author=member,
                        base_version=1,
                        title=f"Proposal {n}",
                        note="",
                        content=f"# {agent}\n\nProposal {n}.\n",
                        at=f"2026-01-01T00:{n // 60 % 60:02d}:{n % 60:02d}.000Z",
                    )
            db.close()
            with TaskdeskClient(server.url, "op-secret") as client:
                from widgets.proposals.queue_model import ProposalTableModel

                model = ProposalTableModel(lambda agent_id: agent_id)
                baseline = best_ms(client.agents, 5)
                show("baseline: the org's 5,000 agents listed", baseline)
                listed = best_ms(lambda: client.org_proposals("open"), 5)
                show(
                    "1,000 open proposals listed (HTTP + parse)",
                    listed,
                    f"{listed / baseline:.2f}x",
                )
                proposals = client.org_proposals("open")
                shown = best_ms(lambda: model.set_proposals(proposals), 5)
                total = listed + shown
                show(
                    "… and put in the queue's table model",
                    total,
                    f"target 100 ms; {len(proposals)} rows",
                )
                started = time.perf_counter()
                assert model.rowCount() == len(proposals) == 1_000
                _ = [model.index(r, 4).data() for r in range(40)]  # a screenful of rows painted
                show("a screenful of rows read", (time.perf_counter() - started) * 1000)


def main() -> None:
    app = QApplication.instance() or QApplication([])
    print("load average: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))
    review_case(app)  # type: ignore[arg-type]
    queue_case()


if __name__ == "__main__":
    main()
