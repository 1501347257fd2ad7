"""Opening a run's System view on a 256 KB expanded Task: the longest GUI stall it causes.

Measures, for the dialog and for a bare QPlainTextEdit given the same text (the baseline),
the time of the call that shows it and the longest single pass of the event loop until the
text is laid out and painted. Target: no stall over 16 ms.

Run: .venv/bin/python bench/bench_system_view.py
"""

from __future__ import annotations

import os
import random
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QElapsedTimer
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QWidget
from task_words import WORDS  # bench/ is on the path when a script runs

from app.client.runs import RunInfo, RunNote, TaskSource
from widgets.insight.system_view import SystemViewDialog

TARGET_BYTES = 256 * 1024
ROUNDS = 7
SETTLE_PASSES = 400  # event-loop passes after showing: the slices, layout and paints


def task_text(seed: int) -> str:
    rng = random.Random(seed)
    lines: list[str] = []
    size = 0
    while size < TARGET_BYTES:
        line = " ".join(rng.choices(WORDS, k=rng.randint(6, 30))).capitalize() + "."
        if rng.random() < 0.1:
            line = "## " + line
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)


def run_of(text: str) -> RunInfo:
    notes = tuple(RunNote(f"org/o_bench/rule-{n}.md", 1, "0" * 64, "note") for n in range(200))
    source = TaskSource(1, "0" * 64, "org/o_bench/agents/a/task.md", True, (), notes, ())
    return RunInfo("run_bench", f"<task>\n{text}\n</task>", source)


def stalls(app: QApplication, show: Callable[[], QWidget]) -> tuple[float, float]:
    """The call that shows the widget, and the longest event-loop pass after it (ms)."""
    clock = QElapsedTimer()
    clock.start()
    widget = show()
    opened = clock.nsecsElapsed() / 1e6
    longest = 0.0
    for _ in range(SETTLE_PASSES):
        clock.restart()
        app.processEvents()
        longest = max(longest, clock.nsecsElapsed() / 1e6)
    widget.close()
    widget.deleteLater()
    app.processEvents()
    return opened, longest


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    text = task_text(1)
    run = run_of(text)

    def dialog() -> QWidget:
        view = SystemViewDialog(run)
        view.resize(900, 640)
        view.show()
        return view

    def bare() -> QWidget:
        view = QPlainTextEdit()
        view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        view.resize(900, 640)
        view.setPlainText(text)
        view.show()
        return view

    results: dict[str, list[float]] = {"dialog": [], "bare": []}
    for _ in range(ROUNDS):  # taking turns: a busy machine slows both alike
        for name, show in (("dialog", dialog), ("bare", bare)):
            opened, longest = stalls(app, show)
            results[name].append(max(opened, longest))
    print(f"expanded Task: {len(text.encode()):,} bytes, {ROUNDS} rounds")
    for name, label in (("dialog", "System view"), ("bare", "bare QPlainTextEdit (baseline)")):
        values = results[name]
        print(
            f"{label}: longest stall median {statistics.median(values):.1f} ms, "
            f"worst {max(values):.1f} ms"
        )
    ratio = statistics.median(results["dialog"]) / statistics.median(results["bare"])
    print(f"ratio System view / baseline: {ratio:.2f}x (target: every stall under 16 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
