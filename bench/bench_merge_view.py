"""Opening the merge view on a 256 KB Task: the GUI thread's share, beside loading the Task.

Run: .venv/bin/python bench/bench_merge_view.py   (offscreen; best of several runs)

The merge itself runs on the runner (bench_merge.py measures it). What the GUI thread does
when it arrives: the merged text replaces the editor text as one undoable edit (highlighted),
the marks are placed (QTextCursors) and painted (extra selections), and the editor repaints.
Target: at most 50 ms in one go. Baseline: TaskEditor.set_text of the same text, what every
load of a Task already costs on the GUI thread.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench_diff import changed_copy, make_text  # bench/ is on the path when a script runs
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication

from app.core.merge import merge_texts
from app.core.merge_layout import MergeLayout, lay_out
from widgets.editor.merge_marks import MergeMarks
from widgets.editor.task_editor import TaskEditor

SIZE = 256 * 1024
TARGET_MS = 50.0


def best_ms(action: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def case(name: str, base: str, theirs: str, mine: str, editor: TaskEditor) -> None:
    layout: MergeLayout = lay_out(merge_texts(base, theirs, mine))
    marks = MergeMarks(editor)
    conflicts = len(layout.conflict_spans())

    def load() -> None:
        editor.set_text(mine)
        editor.viewport().repaint()

    def open_merge() -> None:
        editor.set_text(mine)  # not timed below: the editor holds mine before the merge
        start = time.perf_counter()
        cursor = QTextCursor(editor.document())
        cursor.beginEditBlock()  # as the tab does: one undoable replacement
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(layout.text)
        cursor.endEditBlock()
        marks.show(layout.text, layout.marks)
        editor.viewport().repaint()
        timings.append(time.perf_counter() - start)
        marks.clear()

    timings: list[float] = []
    baseline = best_ms(load)
    for _ in range(5):
        open_merge()
    opened = min(timings) * 1000
    verdict = "ok" if opened <= TARGET_MS else "OVER"
    print(
        f"256 KB, {name}: {len(layout.marks)} marks, {conflicts} conflicts\n"
        f"  load the Task (TaskEditor.set_text)        {baseline:8.1f} ms\n"
        f"  open the merge view (replace, mark, paint) {opened:8.1f} ms  "
        f"{opened / baseline:.2f}x the load; target {TARGET_MS:.0f} ms: {verdict}"
    )


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    editor = TaskEditor()
    editor.resize(1000, 700)
    editor.show()
    base_lines = make_text(SIZE, seed=1)
    base = "".join(base_lines)
    theirs = "".join(changed_copy(base_lines, 0.01, seed=2))
    mine = "".join(changed_copy(base_lines, 0.01, seed=3))
    case("1% of lines changed on each side", base, theirs, mine, editor)
    other = "".join(make_text(SIZE, seed=4))
    case("fully different versions", base, other, "".join(make_text(SIZE, seed=5)), editor)
    editor.close()
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
