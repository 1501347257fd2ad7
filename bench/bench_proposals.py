"""Proposals: opening a review of a 256 KB proposal on a moved base, and the org's queue.

Each figure is printed beside its baseline, measured in the same run (interleaved, medians):
- the review's work off the GUI thread (the desk's load less HTTP: rebase, raw diff, hunks;
  then the outcome: result and effective diffs) beside the compare view's own work on the
  same pair (build_diff base → proposal); the issue's target is at most 2x;
- what the operator waits for, on screen: that work plus the review window taking the basis
  and the outcome until the compare on screen is laid out and the window painted, beside the
  compare view alone doing the same (diff, set_model, painted); target at most 2x;
- the longest GUI-thread stall of each turn the desk's signals arrive in, on new review
  windows (target 16 ms), beside the same heartbeat with nothing to do and the compare view
  alone taking the same model;
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

from PySide6.QtCore import QEvent, QEventLoop, Qt, QTimer
from PySide6.QtWidgets import QApplication, QWidget
from task_words import WORDS  # bench/ is on the path when a script runs

from app.client import TaskdeskClient
from app.core.diff_model import build_diff
from app.core.expander import task_display_path
from app.core.models import Reader, Revision, TaskDoc
from app.core.proposal_models import Proposal
from app.core.proposal_review import Decision, HunkDecision, ReviewBasis
from app.core.task_shape import check_task_shape
from app.desk.proposal_review_desk import ReviewData, ReviewOutcome, rebuild, review_outcome
from app.server import start_server
from app.server.callers import Caller
from app.server.proposal_records import add_proposal
from app.server.sqlite_database import ServerDatabase
from app.store.local_store import LocalStore

REVIEW_ROUNDS = 15
STALL_ROUNDS = 5


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


def painted(app: QApplication, window: QWidget, view: Any) -> None:
    """Events handled until the compare ``view`` has laid out every row on screen, then
    ``window`` painted at once: what the operator waits for before reading."""
    while not view.canvas.screen_ready():
        app.processEvents()
    window.repaint()


def shown(app: QApplication, window: QWidget) -> None:
    """``window`` shown, polished and painted once, as before any model reaches it."""
    window.show()
    handle = window.windowHandle()
    while handle is None or not handle.isExposed():
        app.processEvents()
        handle = window.windowHandle()
    app.processEvents()
    window.repaint()


def settled(app: QApplication, *views: Any) -> None:
    """The rest of each view's rows estimated (below the fold, not waited for): done between
    rounds so that one round's leftovers never land in the next one's figure."""
    while not all(view.canvas.is_settled() for view in views):
        app.processEvents()


def review_case(app: QApplication, folder: Path) -> None:
    print("A review of a 256 KB proposal on a moved base")
    base_lines = make_text(256 * 1024, seed=1)
    base = "".join(base_lines)
    live = "".join(changed_copy(base_lines, 0.01, seed=2))  # someone saved meanwhile
    proposal = "".join(changed_copy(base_lines, 0.02, seed=3))
    task_path = task_display_path("o_bench", "a_bench")
    task = TaskDoc(
        "a_bench",
        task_path,
        task_path,
        live,
        2,
        revisions=(Revision(1, base, "2026-01-01T00:00:00.000Z", "Ann"),),
    )
    proposed = Proposal(
        "p_bench", "a_bench", "open", "Bench", "", "u_mia", "Mia", "member", 1, 1, proposal,
        "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z", 2,
    )  # fmt: skip
    reader = Reader("a_bench", "guild_bench")
    store = LocalStore(folder / "store.sqlite3")
    # Never called: the bench's Task embeds no note, and the review was never seen before.
    client = TaskdeskClient("http://127.0.0.1:9", "unused")

    def compare_alone() -> object:
        return build_diff(base, proposal)

    def outcome_of(basis: ReviewBasis, accept_all: bool) -> ReviewOutcome:
        accept = HunkDecision(Decision.ACCEPT)
        decisions = {h.key: accept for h in basis.hunks} if accept_all else {}
        return review_outcome(basis, decisions, reader, lambda _path: None, "o_bench", task_path)

    def review_work(accept_all: bool) -> Callable[[], tuple[ReviewData, ReviewOutcome]]:
        def work() -> tuple[ReviewData, ReviewOutcome]:
            data = rebuild(client, store, "bench", proposed, task)  # the desk's load, less HTTP
            return data, outcome_of(data.basis, accept_all)

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
    print(" Off the GUI thread (the work alone)")
    show("baseline: the compare view's diff, base → proposal", baseline, "(median)")
    data, outcome = review_work(False)()
    basis = data.basis
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

    from app.desk.proposal_review_desk import ReviewDesk
    from app.desk.runner import Runner
    from widgets.proposals.review_window import ReviewWindow
    from widgets.versions.diff_view import DiffView

    runner = Runner()
    desk = ReviewDesk(
        client=client, store=store, server_key="bench", runner=runner, org_id="o_bench", agents={}
    )
    window = ReviewWindow(desk, "Bench agent")  # 1200 x 760, as it opens
    shown(app, window)
    compare = DiffView()  # the compare view alone, as large
    compare.resize(window.size())
    shown(app, compare)

    def compare_on_screen() -> None:
        compare.set_model(build_diff(base, proposal), base, proposal)
        painted(app, compare, compare)

    def review_on_screen(accept_all: bool) -> Callable[[], None]:
        def whole() -> None:
            # As the desk delivers them: the basis, shown; then the outcome, shown.
            data = rebuild(client, store, "bench", proposed, task)
            desk.data = data
            window.on_loaded(data)
            outcome = outcome_of(data.basis, accept_all)
            desk.outcome = outcome
            window.on_outcome(outcome)
            painted(app, window, window.raw_view)

        return whole

    # What the operator waits for: the work and the window taking it until it is painted.
    screens = {
        "compare": compare_on_screen,
        "open": review_on_screen(False),
        "accepted": review_on_screen(True),
    }
    waits: dict[str, list[float]] = {name: [] for name in screens}
    for _ in range(REVIEW_ROUNDS):
        for name, action in screens.items():
            settled(app, compare, window.raw_view)
            start = time.perf_counter()
            action()
            waits[name].append((time.perf_counter() - start) * 1000)
    settled(app, compare, window.raw_view)
    shown_base, shown_open, shown_accepted = (statistics.median(waits[name]) for name in screens)
    print(" On screen (the work, the window taking it, painted)")
    show("baseline: the compare view: diff, set_model, painted", shown_base, "(median)")
    show(
        "review opened: basis, outcome, the window's models, painted",
        shown_open,
        f"{shown_open / shown_base:.2f}x (target 2x)",
    )
    show(
        "review with every hunk accepted, the same",
        shown_accepted,
        f"{shown_accepted / shown_base:.2f}x",
    )

    # The GUI thread's share, in the turns the desk's signals arrive in: a new window each
    # round, as an operator opens one; each figure the longest stall of its turn.
    _data, accepted_outcome = review_work(True)()
    stalls: dict[str, list[tuple[float, float]]] = {}

    def stall(label: str, action: Callable[[], object]) -> None:
        stalls.setdefault(label, []).append(longest_stall_ms(action))

    gc.collect()
    gc.freeze()

    def one_window() -> None:
        """A new review window, as an operator opens one, through the turns it gets."""
        desk = ReviewDesk(
            client=client, store=store, server_key="bench", runner=runner, org_id="o_bench",
            agents={},
        )  # fmt: skip
        review = ReviewWindow(desk, "Bench agent")
        shown(app, review)  # as it is while the review loads: "Loading the proposal…"
        desk.data = data
        stall("the review opens: the window takes the basis", lambda: review.on_loaded(data))
        desk.outcome = outcome
        stall("its outcome arrives (nothing decided)", lambda: review.on_outcome(outcome))
        stall(
            "the Result tab shown, its view takes its model", lambda: review.tabs.setCurrentIndex(1)
        )
        desk.outcome = accepted_outcome
        stall(
            "every hunk accepted: the outcome, on the Result tab",
            lambda: review.on_outcome(accepted_outcome),
        )
        stall("then the agent's tab shown, its view", lambda: review.tabs.setCurrentIndex(2))
        review.close()
        review.deleteLater()
        app.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # not in the next figure
        settled(app, compare)

    for _ in range(STALL_ROUNDS):
        stall("nothing to do", lambda: None)
        stall(
            "the compare view alone takes its model",
            lambda: compare.set_model(basis.raw, base, proposal),
        )
        one_window()
    print(f" GUI thread: longest stall of the turn, painted (target 16 ms; {STALL_ROUNDS} windows)")
    for label, figures in stalls.items():
        walls = [wall for wall, _cpu in figures]
        cpu = statistics.median(c for _wall, c in figures)
        print(
            f"  heartbeat: {label:<49} {statistics.median(walls):6.1f} ms wall median, "
            f"{max(walls):5.1f} worst, {cpu:5.1f} cpu"
        )
    gc.unfreeze()
    window.close()
    compare.close()
    assert runner.shutdown(15_000)
    window.deleteLater()
    compare.deleteLater()
    app.processEvents()
    client.close()
    store.close()


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
    with tempfile.TemporaryDirectory() as folder:
        review_case(app, Path(folder))  # type: ignore[arg-type]
    queue_case()


if __name__ == "__main__":
    main()
