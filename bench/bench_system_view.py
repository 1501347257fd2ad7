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


def stalls(app: QApplication, show: Callable[[], QWidget]) -> tuple[float, float, float]:
    """The call that shows the widget, its first paint (the first event-loop pass), and the
    longest pass after that until the text is in (ms)."""
    clock = QElapsedTimer()
    clock.start()
    widget = show()
    opened = clock.nsecsElapsed() / 1e6
    passes = []
    for _ in range(SETTLE_PASSES):
        clock.restart()
        app.processEvents()
        passes.append(clock.nsecsElapsed() / 1e6)
    widget.close()
    widget.deleteLater()
    app.processEvents()
    return opened, passes[0], max(passes[1:])


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    text = task_text(1)

    def dialog(of: str) -> Callable[[], QWidget]:
        def show() -> QWidget:
            view = SystemViewDialog(run_of(of))
            view.resize(900, 640)
            view.show()
            return view

        return show

    def bare() -> QWidget:
        view = QPlainTextEdit()
        view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        view.resize(900, 640)
        view.setPlainText(text)
        view.show()
        return view

    cases: dict[str, Callable[[], QWidget]] = {
        "System view, 256 KB Task": dialog(text),
        "System view, one-line Task (baseline: the dialog itself)": dialog("One line."),
        "bare QPlainTextEdit, 256 KB at once (baseline)": bare,
    }
    results: dict[str, list[tuple[float, float, float]]] = {name: [] for name in cases}
    for _ in range(ROUNDS):  # taking turns: a busy machine slows all alike
        for name, show in cases.items():
            results[name].append(stalls(app, show))
    print(f"expanded Task: {len(text.encode()):,} bytes, {ROUNDS} rounds, medians in ms")
    for name, rows in results.items():
        opened, first, later = (statistics.median(r[i] for r in rows) for i in range(3))
        print(f"{name}: open call {opened:.1f}, first paint {first:.1f}, longest later {later:.1f}")
    long_rows, short_rows = list(results.values())[:2]
    added = statistics.median(max(r) for r in long_rows) / statistics.median(
        max(r) for r in short_rows
    )
    print(f"ratio longest stall, 256 KB / one line: {added:.2f}x (target: no stall over 16 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
