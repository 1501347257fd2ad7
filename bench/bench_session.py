"""How much a keystroke costs the session: note_edited() beside reading the editor text once.

Run: .venv/bin/python bench/bench_session.py
note_edited() runs on every keystroke, so it must not touch the text (no O(n) work, no disk).
The baseline is one pull of a 256 KB text (what any O(n) work would cost at the least).
Both are timed in batches; the best batch is the figure (what the code costs when nothing
else runs), the median shows how busy the machine was.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication

from app.client.errors import Offline
from app.core.models import TaskDoc
from app.desk.runner import Runner
from app.desk.session import TaskSession
from app.store import LocalStore

KEYSTROKES = 1_000  # per batch
BATCHES = 40
TEXT = "é" * (262_144 // 2)  # 256 KB of UTF-8


class NoServer:
    """A server that is away: the session opens offline and only typing is measured."""

    def get_task(self, agent_id: str) -> TaskDoc:
        raise Offline()

    def put_task(self, agent_id: str, content: str, expected_version: int | None) -> TaskDoc:
        raise AssertionError("no request expected")


def per_call_us(fn: Callable[[], object], n: int) -> tuple[float, float]:
    """Microseconds per call: the best batch of ``n`` calls, and the median batch."""
    batches = []
    for _ in range(BATCHES):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        batches.append((time.perf_counter() - start) / n * 1e6)
    return min(batches), statistics.median(batches)


def main() -> None:
    app = QCoreApplication([])
    text = [TEXT]
    with tempfile.TemporaryDirectory() as tmp, LocalStore(Path(tmp) / "store.sqlite3") as store:
        session = TaskSession(
            client=NoServer(),
            store=store,
            runner=Runner(sync=True),
            server_key="bench",
            text_source=lambda: text[0],
        )
        session.open("a_bench")
        baseline, baseline_median = per_call_us(lambda: text[0].encode("utf-8"), 100)
        keystroke, keystroke_median = per_call_us(session.note_edited, KEYSTROKES)
        session.close()
    print(f"text size: {len(TEXT.encode('utf-8')):,} bytes; best of {BATCHES} batches (median)")
    print(f"baseline  one O(n) pass over the text: {baseline:10.2f} µs ({baseline_median:.2f})")
    print(f"measured  note_edited() per keystroke: {keystroke:10.2f} µs ({keystroke_median:.2f})")
    print(f"ratio: a keystroke costs {keystroke / baseline:.4f} of one pass over the text")
    app.quit()


if __name__ == "__main__":
    main()
