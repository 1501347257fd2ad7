"""Diff model build and display times for 256 KB Tasks, beside difflib's matchers.

Run: .venv/bin/python bench/bench_diff.py
"""

from __future__ import annotations

import difflib
import gc
import itertools
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QEventLoop, Qt, QTimer
from PySide6.QtWidgets import QApplication, QPlainTextEdit
from task_words import WORDS  # bench/ is on the path when a script runs

from app.core.diff_model import SideBySide, aligned_texts, build_diff, split_lines
from widgets.versions.diff_view import DiffView


def markdown_line(rng: random.Random) -> str:
    """Lines as a Task has them: a quarter blank, some bullets, some headings."""
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


def matcher_run(module: object, old: str, new: str, repeat: int) -> tuple[float, int]:
    """Best time and changed lines of ``module.SequenceMatcher(autojunk=False)``."""
    changed = 0

    def run() -> None:
        nonlocal changed
        matcher = module.SequenceMatcher(  # type: ignore[attr-defined]
            None, split_lines(old), split_lines(new), autojunk=False
        )
        changed = sum(
            (i2 - i1) + (j2 - j1) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
        )

    return best_ms(run, repeat), changed


def show(label: str, ms: float, note: str = "") -> None:
    print(f"  {label:<52} {ms:9.1f} ms {note}".rstrip())


def report_case(app: QApplication, name: str, old: str, new: str, small: int) -> None:
    model = build_diff(old, new)
    print(
        f"256 KB, {name} ({len(split_lines(old))} vs {len(split_lines(new))} lines, "
        f"{model.change_count} changes)"
    )
    show(
        "build_diff (targets: 30 ms at 1%, 500 ms any)",
        best_ms(lambda: build_diff(old, new)),
        f"{model.changed_lines} changed lines",
    )
    # Imported here: bench_merge, bench_merge_view and bench_diff_peers use this module's
    # texts and must run without the bench extra's cydifflib.
    import cydifflib

    ms, changed = matcher_run(cydifflib, old, new, 3)
    show("cydifflib.SequenceMatcher(autojunk=False)", ms, f"{changed} changed lines")
    old_small = old[: old.index("\n", small) + 1]
    new_small = new[: new.index("\n", small) + 1]
    small_model = build_diff(old_small, new_small)
    show(
        "build_diff, first 64 KB",
        best_ms(lambda: build_diff(old_small, new_small)),
        f"{small_model.changed_lines} changed lines",
    )
    ms, changed = matcher_run(difflib, old_small, new_small, 1)
    show("stdlib difflib.SequenceMatcher(autojunk=False), 64 KB", ms, f"{changed} changed lines")
    report_view(app, model, old, new)


def longest_stall_ms(action: Callable[[], object]) -> tuple[float, float]:
    """Longest gap between ticks of a 1 ms timer on the GUI thread while ``action`` runs there
    and the window then paints: what an operator would feel as a freeze. Returned as wall
    time and as the GUI thread's own CPU time within that gap (on a shared machine the wall
    gap also holds time the scheduler gave to other processes)."""
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
    print(f"  {label:<52} {stall[0]:9.1f} ms wall, {stall[1]:6.1f} ms cpu")


def settle(app: QApplication, view: DiffView) -> None:
    """Let the view finish its slices of work and every posted event run."""
    while not view.canvas.is_settled():
        app.processEvents()
    app.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    app.processEvents()


def report_view(app: QApplication, model: SideBySide, old: str, new: str) -> None:
    """The compare view taking a model built elsewhere, beside what the view before it did:
    fill two QPlainTextEdits with the aligned texts (32-52 ms measured then)."""
    left, right = aligned_texts(model, old, new)
    panes = [QPlainTextEdit(), QPlainTextEdit()]
    for pane in panes:
        pane.resize(490, 700)
        pane.show()

    def fill_panes() -> None:
        panes[0].setPlainText(left)
        panes[1].setPlainText(right)

    baseline = best_ms(fill_panes, 3)
    show("baseline: two QPlainTextEdit.setPlainText", baseline)
    for pane in panes:
        pane.deleteLater()
    view = DiffView()
    view.resize(1000, 700)
    view.show()
    ms = best_ms(lambda: view.set_model(model, old, new), 3)
    show("DiffView.set_model, 256 KB (the synchronous part)", ms, f"{ms / baseline:.2f}x")
    settle(app, view)
    # The app freezes what start-up made out of the collector's sight once an agent is
    # open (widgets/launcher.py); a full collection would otherwise stall any heartbeat.
    gc.collect()
    gc.freeze()
    show_stall("heartbeat: longest stall, nothing to do", longest_stall_ms(lambda: None))
    show_stall(
        "heartbeat: longest stall, set_model + paint (target 16)",
        longest_stall_ms(lambda: view.set_model(model, old, new)),
    )
    settle(app, view)
    view.go_to_change(model.change_count // 2)
    settle(app, view)
    show_stall(
        "heartbeat: longest stall, jump to the last change",
        longest_stall_ms(lambda: view.go_to_change(model.change_count - 1)),
    )
    view.deleteLater()
    settle(app, view)
    gc.unfreeze()


def main() -> None:
    app = QApplication.instance() or QApplication([])
    # Two cores shared with other work: wall figures stretch with the load, CPU ones less.
    print("load average: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))
    base = make_text(256 * 1024, seed=1)
    old = "".join(base)
    report_case(
        app, "1% of lines changed", old, "".join(changed_copy(base, 0.01, seed=2)), 64 * 1024
    )
    report_case(app, "fully different", old, "".join(make_text(256 * 1024, seed=3)), 64 * 1024)
    del app


if __name__ == "__main__":
    main()
