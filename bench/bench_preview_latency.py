"""Key → preview updated on screen, a 256 KB Task side by side, through the real preview
pipeline: the fixed debounce (before) beside a cheap preview drawn at once (after), one run.

Single keys are typed into the middle of the Task, each after the last preview has landed
(and a pause past the debounce), so each key's figure is its own. The time runs from the key
event to the preview pane saying the new HTML is shown (``html_shown``). A 1 ms heartbeat
records the GUI thread's longest stalls meanwhile. The GIL is handed over as often as the
app has it (``widgets/launcher.py``). Targets (issue 30): median ≤ 50 ms,
max ≤ 100 ms; no stall over 16 ms.

Run: .venv/bin/python bench/bench_preview_latency.py [keys]
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench_editor import ORG, READER, Heartbeat, _lookup, task_text
from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtGui import QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QHBoxLayout, QWidget

from app.core.expander import expand_embeds
from app.core.models import Reader
from app.desk.gc_pauses import START_UP_STEPS, GuiThreadCollector
from app.desk.preview_pipeline import (
    CHEAP_PREVIEW_MS,
    PREVIEW_DEBOUNCE_MS,
    PreviewContext,
    PreviewPipeline,
    PreviewResult,
)
from app.desk.runner import Runner
from app.render.preview_notes import PreviewExpansion
from widgets.editor.task_editor import TaskEditor
from widgets.launcher import GIL_SWITCH_INTERVAL_S
from widgets.preview.preview_panel import PreviewPanel

KEYS = int(sys.argv[1]) if len(sys.argv) > 1 else 40
SETTLE_MS = PREVIEW_DEBOUNCE_MS + 150  # after each landed preview, before the next key


class LocalNotes:
    """The preview's notes from a lookup in memory (no server: the render is what's timed)."""

    def __init__(self) -> None:
        self.lookup = _lookup()

    def expand_for_preview(
        self, task_text: str, *, org_id: str, reader: Reader, task_path: str = "", progress=None
    ) -> PreviewExpansion:  # type: ignore[no-untyped-def]
        expansion = expand_embeds(task_text, org_id=org_id, reader=reader, lookup=self.lookup)
        return PreviewExpansion(expansion, False, None, (), False)


def run(app: QApplication, text: str, cheap_ms: int) -> tuple[list[float], list[float]]:
    """Per-key latencies and heartbeat gaps (seconds) with ``cheap_ms`` (0: always debounce)."""
    window = QWidget()
    layout = QHBoxLayout(window)
    editor = TaskEditor()
    runner = Runner()
    panel = PreviewPanel(runner=runner)
    layout.addWidget(editor)
    layout.addWidget(panel)
    window.resize(1600, 800)
    editor.set_text(text)
    window.show()
    pipeline = PreviewPipeline(
        runner=runner, notes=LocalNotes(), text_source=editor.toPlainText, cheap_ms=cheap_ms
    )

    costs: list[float] = []  # the job (expand + render, on the runner), then the install

    def show(result: PreviewResult) -> None:
        costs.append(pipeline._last_cost or 0.0)
        started = time.perf_counter()
        panel.show_preview(result.html, result.expansion.text)
        installs.append(time.perf_counter() - started)

    installs: list[float] = []

    pipeline.ready.connect(show)
    loop = QEventLoop()
    shown_at: list[float] = []
    panel.pane.html_shown.connect(lambda: (shown_at.append(time.perf_counter()), loop.quit()))
    # Collections as the app makes them (widgets/launcher.py): on the GUI thread between
    # events, what start-up made frozen once the first agent is on screen.
    collector = GuiThreadCollector(window)
    pipeline.set_context(PreviewContext(ORG, READER))
    loop.exec()  # the first, cold, preview
    for step in START_UP_STEPS:
        collector.start_up_step(step)
    pipeline.schedule()  # one debounced re-render, so the pipeline knows what one costs
    loop.exec()
    editor.textChanged.connect(pipeline.schedule)
    cursor = editor.textCursor()
    cursor.setPosition(editor.document().characterCount() // 2)
    cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock)
    editor.setTextCursor(cursor)
    editor.centerCursor()
    heartbeat = Heartbeat()
    latencies: list[float] = []
    gaps: list[float] = []
    for key in ("abcdefghij klmnopqrst uvwxyz " * 10)[:KEYS]:
        QTimer.singleShot(SETTLE_MS, loop.quit)
        loop.exec()
        heartbeat.start()
        before = len(shown_at)
        pressed = time.perf_counter()
        QTest.keyClick(editor, key)
        while len(shown_at) == before:
            loop.exec()
        latencies.append(shown_at[-1] - pressed)
        heartbeat.stop()
        gaps.extend(heartbeat.gaps)
    print(
        f"  cheap_ms={cheap_ms}: job median {statistics.median(costs[2:]) * 1000:.1f} ms,"
        f" show_preview median {statistics.median(installs[2:]) * 1000:.1f} ms"
        f" max {max(installs[2:]) * 1000:.1f} ms"
    )
    collector.stop()
    gc.unfreeze()
    gc.enable()
    pipeline.set_context(None)
    panel.pane.wait_for_builds()
    window.close()
    window.deleteLater()
    runner.shutdown()
    app.processEvents()
    return latencies, gaps


def summary(name: str, latencies: list[float], gaps: list[float]) -> None:
    ms = [x * 1000 for x in latencies]
    stalls = [g * 1000 for g in gaps if g > 0.016]
    print(
        f"| {name} | {statistics.median(ms):.1f} ms | {max(ms):.1f} ms |"
        f" {len(stalls)} of {len(gaps)} ticks, longest {max(gaps, default=0) * 1000:.1f} ms |",
        flush=True,
    )


def main() -> None:
    sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)  # as the app runs (widgets/launcher.py)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    text = task_text()
    print("load average: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))
    print(f"| key → preview on screen, {len(text.encode()):,} B | median | max | stalls > 16 ms |")
    print("|---|---|---|---|")
    before = run(app, text, cheap_ms=0)
    after = run(app, text, cheap_ms=CHEAP_PREVIEW_MS)
    summary(f"before: {PREVIEW_DEBOUNCE_MS} ms debounce always", *before)
    summary(f"after: a preview made in ≤ {CHEAP_PREVIEW_MS} ms made at once", *after)
    print("after, each key (ms):", sorted(round(x * 1000) for x in after[0]))
    print("load average: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
