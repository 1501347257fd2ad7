"""Local store write and read times for 256 KB drafts, beside a plain fsync'ed file write.

The baseline is what any durable save of the same bytes costs on this disk (write + fsync of
a file in the same folder); the store adds SQLite's WAL bookkeeping on top of it.

Run: .venv/bin/python bench/bench_store.py [folder]   (default: a temporary folder)
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.core.models import OrgFile
from app.store import LocalStore

ROUNDS = 200
SERVER = "http://127.0.0.1:8000"


def _draft_text(i: int) -> str:
    line = f"- rule {i}: keep replies short, cite the ticket, never guess — ünïcödé\n"
    whole = (line * (262_144 // len(line) + 1)).encode("utf-8")[:262_144]
    return whole.decode("utf-8", errors="ignore")  # at most 256 KiB, cut on a character


def _timed(run: Callable[[int], object]) -> list[float]:
    times = []
    for i in range(ROUNDS):
        start = time.perf_counter()
        run(i)
        times.append((time.perf_counter() - start) * 1000)
    return times


def _report(name: str, times: list[float]) -> None:
    times = sorted(times)
    p95 = times[int(len(times) * 0.95) - 1]
    print(f"{name:<44} median {statistics.median(times):7.2f} ms   p95 {p95:7.2f} ms")


def main() -> None:
    if len(sys.argv) > 1:
        run(Path(sys.argv[1]))
        return
    with tempfile.TemporaryDirectory(prefix="bench-store-") as folder:
        run(Path(folder))


def run(folder: Path) -> None:
    texts = [_draft_text(i) for i in range(ROUNDS)]
    size = len(texts[0].encode("utf-8"))
    print(f"folder: {folder}   draft: {size:,} bytes   rounds: {ROUNDS}")

    baseline_path = folder / "baseline.txt"

    def write_file(i: int) -> None:
        fd = os.open(baseline_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, texts[i].encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)

    _report("baseline: write + fsync a 256 KB file", _timed(write_file))

    with LocalStore(folder / "store.sqlite3") as store:
        _report(
            "save_draft (256 KB, WAL, synchronous=FULL)",
            _timed(lambda i: store.save_draft(SERVER, "a_scout", texts[i], i, agent_name="S")),
        )
        _report("get_draft (256 KB)", _timed(lambda i: store.get_draft(SERVER, "a_scout")))
        _report(
            "remove_draft (mismatch: text compared)",
            _timed(lambda i: store.remove_draft(SERVER, "a_scout", texts[0])),
        )
        _report(
            "add_history (256 KB, with pruning)",
            _timed(lambda i: store.add_history(SERVER, "a_scout", texts[i], "discarded", i)),
        )
        notes = [OrgFile(f"org/o/n{k}.md", "note", f"N{k}", "x" * 4096) for k in range(20)]
        _report("put_notes (20 notes of 4 KB)", _timed(lambda i: store.put_notes(SERVER, notes)))
    baseline_path.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
