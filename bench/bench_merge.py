"""Three-way merge times for 256 KB Tasks, beside the two two-way diffs a merge needs.

Run: .venv/bin/python bench/bench_merge.py

Each figure is the best of several runs, as wall time and as this thread's CPU time: the
machine is shared, and CPU time is what the merge itself costs when other processes take
turns on the cores. Targets: with 1% of lines changed on each side, a merge costs
at most 2x the two diffs and 50 ms; fully different versions at most 500 ms, off the GUI
thread, cancellable, and the GUI thread never stalls more than 16 ms meanwhile.
"""

from __future__ import annotations

import itertools
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench_diff import changed_copy, make_text  # bench/ is on the path when a script runs
from PySide6.QtCore import QCoreApplication, QEventLoop, Qt, QTimer

from app.core.cancel import CancelledError, CancelToken, NewestRequest
from app.core.diff_model import build_diff
from app.core.merge import merge_texts
from app.desk.runner import Runner


def best(action: Callable[[], object], repeat: int = 5) -> tuple[float, float]:
    """Best wall and best thread-CPU milliseconds of ``action``."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.thread_time()
        action()
        cpus.append(time.thread_time() - cpu)
        walls.append(time.perf_counter() - wall)
    return min(walls) * 1000, min(cpus) * 1000


def show(label: str, figures: tuple[float, float], note: str = "") -> None:
    wall, cpu = figures
    print(f"  {label:<46} {wall:8.1f} ms wall {cpu:8.1f} ms cpu  {note}".rstrip())


def ratio(figures: tuple[float, float], baseline: tuple[float, float]) -> str:
    return f"{figures[0] / baseline[0]:.2f}x wall, {figures[1] / baseline[1]:.2f}x cpu"


def report_case(
    name: str, base: str, theirs: str, mine: str, target_ms: float, repeat: int
) -> None:
    result = merge_texts(base, theirs, mine)
    print(
        f"256 KB, {name}: {len(result.regions)} regions, {len(result.mine_changes)} of mine, "
        f"{len(result.theirs_changes)} of theirs, {len(result.conflicts)} conflicts"
    )
    diffs = best(lambda: (build_diff(base, theirs), build_diff(base, mine)), repeat)
    show("baseline: two build_diff (base→theirs, base→mine)", diffs)
    merge = best(lambda: merge_texts(base, theirs, mine), repeat)
    verdict = "ok" if merge[1] <= target_ms else "OVER"
    show(f"merge_texts (target {target_ms:.0f} ms)", merge, f"{ratio(merge, diffs)}  {verdict}")


def longest_stall_while(
    app: QCoreApplication, start: Callable[[Callable[[], None]], None]
) -> float:
    """Longest gap (ms) between ticks of a 1 ms timer on the GUI thread while background work
    runs; ``start(done)`` starts the work and calls ``done`` when its callback has run."""
    loop = QEventLoop()
    ticks: list[float] = []
    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(1)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start()
    QTimer.singleShot(20, lambda: start(lambda: QTimer.singleShot(20, loop.quit)))
    loop.exec()
    timer.stop()
    return max(b - a for a, b in itertools.pairwise(ticks)) * 1000


def report_background(app: QCoreApplication, base: str, theirs: str, mine: str) -> None:
    runner = Runner()
    print("Off the GUI thread (the runner), fully different versions")
    # Baselines: the same heartbeat with nothing running (what the machine's load alone
    # costs), and with the merge on the GUI thread itself.
    idle = longest_stall_while(app, lambda done: QTimer.singleShot(600, done))
    print(f"  baseline: longest stall, nothing running               {idle:8.1f} ms")

    def on_gui_thread(done: Callable[[], None]) -> None:
        merge_texts(base, theirs, mine)
        done()

    inline = longest_stall_while(app, on_gui_thread)
    print(f"  baseline: longest stall, merging on the GUI thread     {inline:8.1f} ms")

    def merge_once(done: Callable[[], None]) -> None:
        runner.submit(
            lambda: merge_texts(base, theirs, mine),
            on_done=lambda _result: done(),
            on_error=lambda exc: (print(f"  failed: {exc!r}"), done()),
        )

    stall = longest_stall_while(app, merge_once)
    print(f"  longest GUI-thread stall while merging (target 16 ms) {stall:8.1f} ms")

    requests = NewestRequest()
    cancelled_after: list[float] = []

    def replaced(done: Callable[[], None]) -> None:
        older: CancelToken = requests.start()

        def failed(exc: BaseException) -> None:
            if isinstance(exc, CancelledError):
                cancelled_after.append((time.perf_counter() - asked[0]) * 1000)
            done()

        asked = [0.0]
        runner.submit(
            lambda: merge_texts(base, theirs, mine, cancel=older),
            on_done=lambda _result: done(),
            on_error=failed,
        )

        def newer() -> None:
            asked[0] = time.perf_counter()
            requests.start()  # a newer request cancels the running one

        QTimer.singleShot(30, newer)

    stall = longest_stall_while(app, replaced)
    if cancelled_after:
        print(f"  replaced 30 ms in: stopped, its callback ran after {cancelled_after[0]:6.1f} ms")
    else:
        print("  replaced 30 ms in: it had finished first (no cancel needed)")
    print(f"  longest GUI-thread stall meanwhile (target 16 ms)      {stall:8.1f} ms")
    runner.shutdown()


def main() -> None:
    app = QCoreApplication.instance() or QCoreApplication([])
    # Two cores shared with other work: wall figures stretch with the load, CPU ones less.
    print("load average: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))
    base_lines = make_text(256 * 1024, seed=1)
    base = "".join(base_lines)
    theirs = "".join(changed_copy(base_lines, 0.01, seed=2))
    mine = "".join(changed_copy(base_lines, 0.01, seed=3))
    report_case("1% of lines changed on each side", base, theirs, mine, 50, repeat=7)
    overlapping = list(base_lines)
    both = changed_copy(base_lines, 0.01, seed=4)
    for index, (old, new) in enumerate(zip(base_lines, both, strict=True)):
        if old != new:  # theirs edits a word of the lines mine rewrote: word-level work
            overlapping[index] = old.replace(" ", "  ", 1)
    report_case(
        "1% changed, every change overlapping", base, "".join(overlapping), "".join(both), 50, 7
    )
    different_theirs = "".join(make_text(256 * 1024, seed=5))
    different_mine = "".join(make_text(256 * 1024, seed=6))
    report_case("fully different versions", base, different_theirs, different_mine, 500, repeat=3)
    report_background(app, base, different_theirs, different_mine)
    del app


if __name__ == "__main__":
    main()
