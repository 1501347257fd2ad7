"""The Task editor and live preview on a 256 KB Task, beside bare QPlainTextEdit baselines.

Run: .venv/bin/python bench/bench_editor.py [--switch-interval-ms=N]
(offscreen; figures are medians unless said; the GIL's switch interval is the app's own,
``GIL_SWITCH_INTERVAL_S``, unless N says another)

1. Showing the Task: TaskEditor.set_text (highlighting every block) vs a bare
   QPlainTextEdit.setPlainText of the same text. Target: within 4x.
2. Typing in bursts into the middle of the Task with highlighting and the live preview on
   (debounced; expansion and Markdown rendered in a worker, the preview document parsed off
   the GUI thread) vs typing into a bare QPlainTextEdit. Per keystroke: the key event and a
   repaint of the editor. Target: within 1.5x. Meanwhile a 1 ms heartbeat timer records the
   longest gap in the GUI thread's event loop (a stall). Target: at most 16 ms.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QHBoxLayout, QPlainTextEdit, QWidget
from task_words import WORDS  # bench/ is on the path when a script runs

from app.core.expander import (
    CollectionPiece,
    Expansion,
    MarkerPiece,
    NotePiece,
    RepeatPiece,
    expand_embeds,
)
from app.core.limits import TASK_MAX_BYTES, utf8_len
from app.core.models import AccessEntry, OrgFile, Reader
from app.desk.runner import Runner
from app.render import PreviewRenderer
from widgets.editor.highlighter import EmbedVerdict
from widgets.editor.task_editor import TaskEditor
from widgets.launcher import GIL_SWITCH_INTERVAL_S
from widgets.preview.preview_panel import PreviewPanel

ORG = "o_bench"
READER = Reader("a_bench", "guild_bench")
STYLE = f"org/{ORG}/guilds/guild_bench/style-guide.md"
ESCALATION = f"org/{ORG}/policies/escalation.md"
CUSTOMERS = f"org/{ORG}/guilds/guild_bench/customers"
GONE = f"org/{ORG}/gone.md"

DEBOUNCE_MS = 300
KEY_INTERVAL_MS = 30
BURSTS = 8
KEYS_PER_BURST = 25
PAUSE_MS = 700


def _lookup() -> dict[str, OrgFile]:
    org = (AccessEntry("org", "read"),)
    rng = random.Random(7)
    style = "\n".join(f"- {_sentence(rng)}" for _ in range(40))
    escalation = "\n\n".join(_sentence(rng) for _ in range(30))
    return {
        STYLE: OrgFile(STYLE, "note", "Style guide", style, 3, org),
        ESCALATION: OrgFile(ESCALATION, "note", "Escalation", escalation, 1, org),
        CUSTOMERS: OrgFile(CUSTOMERS, "collection", "Customers", None, 1, org),
    }


def _sentence(rng: random.Random) -> str:
    words = rng.choices(WORDS, k=rng.randint(6, 14))
    if rng.random() < 0.3:
        words[0] = f"**{words[0]}**"
    if rng.random() < 0.2:
        words[-1] = f"`{words[-1]}`"
    if rng.random() < 0.1:
        words[1] = f"[{words[1]}](https://example.com/{words[1]})"
    return " ".join(words).capitalize() + "."


def task_text(limit: int = TASK_MAX_BYTES - 2048) -> str:
    """A realistic Task just under 256 KB: headings, lists, code, links and embeds."""
    rng = random.Random(11)
    parts = ["# Bench agent", "", f"Follow ![[{STYLE}]] and ![[{ESCALATION}]].", ""]
    size = sum(len(p) + 1 for p in parts)
    section = 0
    while size < limit:
        section += 1
        chunk = [f"## Section {section}", "", " ".join(_sentence(rng) for _ in range(3)), ""]
        chunk += [f"- {_sentence(rng)}" for _ in range(4)]
        if section % 5 == 0:
            chunk += ["", "```", "status = check(queue)", "```"]
        if section % 7 == 0:
            chunk += ["", f"See ![[{CUSTOMERS}]], ![[{STYLE}]] and ![[{GONE}]]."]
        chunk.append("")
        text = "\n".join(chunk) + "\n"
        size += len(text)
        parts.append(text)
    return "\n".join(parts)[:limit]


def verdicts_of(expansion: Expansion) -> dict[str, EmbedVerdict]:
    """Each Task embed's verdict, as the window derives it from the preview's Expansion."""
    out: dict[str, EmbedVerdict] = {}
    for piece in expansion.pieces:
        if isinstance(piece, NotePiece):
            out.setdefault(piece.path, "inlined")
        elif isinstance(piece, CollectionPiece):
            out.setdefault(piece.path, "collection")
        elif isinstance(piece, MarkerPiece):
            out.setdefault(piece.path, "unreachable")
        elif isinstance(piece, RepeatPiece):
            out.setdefault(piece.path, "repeat")
    return out


# ---------------------------------------------------------------- 1. showing the Task


def time_show(make: Callable[[], QPlainTextEdit], text: str, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        widget = make()
        widget.resize(900, 700)
        widget.show()
        started = time.perf_counter()
        widget.setPlainText(text)
        times.append(time.perf_counter() - started)
        widget.close()
        widget.deleteLater()
    return statistics.median(times)


# ---------------------------------------------------------------- 2. typing


class Heartbeat(QObject):
    """A 1 ms timer; the longest gap between its ticks is the longest GUI-thread stall."""

    def __init__(self) -> None:
        super().__init__()
        self.timer = QTimer(self)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(1)
        self.timer.timeout.connect(self._tick)
        self.last = 0.0
        self.gaps: list[float] = []

    def start(self) -> None:
        self.last = time.perf_counter()
        self.gaps.clear()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append(now - self.last)
        self.last = now

    def longest(self) -> float:
        return max(self.gaps, default=0.0)


class LivePreview(QObject):
    """The window's preview loop in miniature: debounce, render in a worker, show."""

    rendered = Signal(object, str, object)  # Expansion, html, verdicts

    def __init__(self, editor: TaskEditor, panel: PreviewPanel) -> None:
        super().__init__()
        self.editor = editor
        self.panel = panel
        self.lookup = _lookup()
        self.renderer = PreviewRenderer()
        self.pool = ThreadPoolExecutor(max_workers=1)
        self.debounce = QTimer(self)
        self.debounce.setSingleShot(True)
        self.debounce.setInterval(DEBOUNCE_MS)
        self.debounce.timeout.connect(self.start_render)
        self.rendered.connect(self.on_rendered)
        editor.textChanged.connect(self.debounce.start)
        self.renders = 0
        self.shown = 0
        self.render_seconds: list[float] = []
        self.install_seconds: list[float] = []
        panel.pane.html_shown.connect(self._count_shown)

    def start_render(self) -> None:
        self.pool.submit(self._render, self.editor.toPlainText())

    def _render(self, text: str) -> None:
        started = time.perf_counter()
        expansion = expand_embeds(text, org_id=ORG, reader=READER, lookup=self.lookup)
        html = self.renderer.render_preview(expansion)
        verdicts = verdicts_of(expansion)
        self.render_seconds.append(time.perf_counter() - started)
        self.rendered.emit(expansion, html, verdicts)

    def on_rendered(self, expansion: Expansion, html: str, verdicts: dict) -> None:
        started = time.perf_counter()
        self.renders += 1
        self.panel.show_preview(html, expansion.text)
        self.editor.set_verdicts(verdicts)
        self.install_seconds.append(time.perf_counter() - started)

    def _count_shown(self) -> None:
        self.shown += 1

    def close(self) -> None:
        self.pool.shutdown(wait=True)
        self.panel.pane.wait_for_builds()


def type_bursts(editor: QPlainTextEdit, heartbeat: Heartbeat) -> list[float]:
    """Type ``BURSTS`` bursts of keys into the middle of the text; seconds per keystroke."""
    cursor = editor.textCursor()
    cursor.setPosition(editor.document().characterCount() // 2)
    cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock)
    editor.setTextCursor(cursor)
    editor.centerCursor()
    latencies: list[float] = []
    keys = iter(("abcdefghij klmnopqrst uvwxyz " * 100)[: BURSTS * KEYS_PER_BURST])
    loop = QEventLoop()
    typed = 0

    def press() -> None:
        nonlocal typed
        key = next(keys, None)
        if key is None:
            QTimer.singleShot(PAUSE_MS + DEBOUNCE_MS, loop.quit)  # let the last preview land
            return
        started = time.perf_counter()
        QTest.keyClick(editor, key)
        editor.viewport().repaint()
        latencies.append(time.perf_counter() - started)
        typed += 1
        QTimer.singleShot(PAUSE_MS if typed % KEYS_PER_BURST == 0 else KEY_INTERVAL_MS, press)

    heartbeat.start()
    QTimer.singleShot(0, press)
    loop.exec()
    heartbeat.stop()
    return latencies


def type_baseline(text: str, heartbeat: Heartbeat) -> tuple[list[float], list[float]]:
    """Typing into a bare QPlainTextEdit laid out like the live run; latencies and gaps."""
    window = QWidget()
    layout = QHBoxLayout(window)
    bare = QPlainTextEdit()
    layout.addWidget(bare)
    layout.addWidget(QWidget())
    window.resize(1600, 800)
    bare.setPlainText(text)
    window.show()
    latency = type_bursts(bare, heartbeat)
    gaps = list(heartbeat.gaps)
    window.close()
    window.deleteLater()
    return latency, gaps


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f} ms"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> int:
    # How often Python hands the GIL between threads: the window sets it for the whole app
    # (open_window), so the GUI thread gets in soon while a worker renders Markdown; typed
    # here as there. Python's own default is 5 ms.
    sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)
    if len(sys.argv) > 1 and sys.argv[1].startswith("--switch-interval-ms="):
        sys.setswitchinterval(float(sys.argv[1].split("=", 1)[1]) / 1000)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    text = task_text()
    print(f"GIL switch interval: {sys.getswitchinterval() * 1000:.1f} ms")
    print(
        f"Task: {utf8_len(text):,} bytes, {text.count(chr(10)) + 1:,} lines, "
        f"{text.count('![[')} embeds"
    )

    # 1 ---------------------------------------------------------------
    time_show(QPlainTextEdit, text, runs=1)  # warm-up: fonts, caches
    bare = time_show(QPlainTextEdit, text)
    highlighted = time_show(TaskEditor, text)
    print("\n1. Showing the Task (median of 5)")
    print(f"   bare QPlainTextEdit.setPlainText   {ms(bare)}")
    print(
        f"   TaskEditor.set_text (highlighted)  {ms(highlighted)}   "
        f"{highlighted / bare:4.2f}x  (target <= 4x)"
    )

    # 2 ---------------------------------------------------------------
    heartbeat = Heartbeat()
    # The baseline types in the same window geometry, before and after the live run, so
    # drift in the machine's speed falls on both sides.
    base_latency, base_stalls = type_baseline(text, heartbeat)

    window = QWidget()
    layout = QHBoxLayout(window)
    editor = TaskEditor()
    runner = Runner()  # large previews are laid out off the GUI thread, as in the window
    panel = PreviewPanel(runner=runner)
    layout.addWidget(editor)
    layout.addWidget(panel)
    window.resize(1600, 800)
    editor.set_text(text)
    window.show()
    live = LivePreview(editor, panel)
    live.start_render()  # the preview as the tab opens, before typing starts
    wait = QEventLoop()
    panel.pane.html_shown.connect(wait.quit)
    wait.exec()
    live_latency = type_bursts(editor, heartbeat)
    live_stall = heartbeat.longest()
    live_over_16 = sum(g > 0.016 for g in heartbeat.gaps)
    live_beats = len(heartbeat.gaps)
    more_latency, more_stalls = type_baseline(text, heartbeat)
    base_latency += more_latency
    base_stalls += more_stalls
    base_stall = max(base_stalls)
    base_over_16 = sum(g > 0.016 for g in base_stalls)
    live.close()
    runner.shutdown()

    print(
        f"\n2. Typing {len(live_latency)} keys in {BURSTS} bursts, preview debounced "
        f"{DEBOUNCE_MS} ms"
    )
    print("                                     median        p95        max")
    print(
        f"   bare QPlainTextEdit           {ms(statistics.median(base_latency))} "
        f"{ms(percentile(base_latency, 0.95))} {ms(max(base_latency))}"
    )
    print(
        f"   TaskEditor + live preview     {ms(statistics.median(live_latency))} "
        f"{ms(percentile(live_latency, 0.95))} {ms(max(live_latency))}"
    )
    ratio = statistics.median(live_latency) / statistics.median(base_latency)
    print(f"   per-keystroke ratio (median)  {ratio:4.2f}x  (target <= 1.5x)")
    print(f"   previews rendered / shown     {live.renders} / {live.shown}")
    if live.render_seconds:
        print(
            f"   worker render (expand+HTML)   {ms(statistics.median(live.render_seconds))} "
            f"median, {ms(max(live.render_seconds))} max (off the GUI thread)"
        )
    if live.install_seconds:
        print(
            f"   GUI-thread show_preview call  {ms(statistics.median(live.install_seconds))} "
            f"median, {ms(max(live.install_seconds))} max"
        )
    print(f"   longest GUI stall, bare       {ms(base_stall)}")
    print(f"   longest GUI stall, live       {ms(live_stall)}   (target <= 16 ms)")
    print(
        f"   GUI stalls over 16 ms         {live_over_16} of {live_beats} heartbeats "
        f"(bare runs: {base_over_16} of {len(base_stalls)})"
    )
    window.close()
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
