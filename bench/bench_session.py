"""How much a keystroke costs the session: note_edited() beside reading the editor text once.

Run: .venv/bin/python bench/bench_session.py
note_edited() runs on every keystroke, so it must not touch the text (no O(n) work, no disk).
The baseline is one pull of a 256 KB text (what any O(n) work would cost at the least).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication

from app.client.errors import Offline
from app.core.models import TaskDoc
from app.desk.runner import Runner
from app.desk.session import TaskSession
from app.store import LocalStore

KEYSTROKES = 20_000
TEXT = "é" * (262_144 // 2)  # 256 KB of UTF-8


class NoServer:
    """A server that is away: the session opens offline and only typing is measured."""

    def get_task(self, agent_id: str) -> TaskDoc:
        raise Offline()

    def put_task(self, agent_id: str, content: str, expected_version: int | None) -> TaskDoc:
        raise AssertionError("no request expected")


def per_call_us(fn: object, n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        fn()  # type: ignore[operator]
    return (time.perf_counter() - start) / n * 1e6


def main() -> None:
    app = QCoreApplication([])
    text = [TEXT]
    with tempfile.TemporaryDirectory() as tmp, LocalStore(Path(tmp) / "store.sqlite3") as store:
        session = TaskSession(
            client=NoServer(),  # type: ignore[arg-type]
            store=store,
            runner=Runner(sync=True),
            server_key="bench",
            text_source=lambda: text[0],
        )
        session.open("a_bench")
        baseline = per_call_us(lambda: text[0].encode("utf-8"), 2_000)
        keystroke = per_call_us(session.note_edited, KEYSTROKES)
        session.close()
    print(f"text size: {len(TEXT.encode('utf-8')):,} bytes")
    print(f"baseline  one O(n) pass over the text: {baseline:10.2f} µs")
    print(f"measured  note_edited() per keystroke: {keystroke:10.2f} µs")
    print(f"ratio: a keystroke costs {keystroke / baseline:.3f} of one pass over the text")
    app.quit()


if __name__ == "__main__":
    main()
