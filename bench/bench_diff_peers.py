"""The diff model beside Meld's Myers matcher and GNU diff: two 256 KB versions, 1%, 30% and
every line changed, best of several runs each, interleaved, in one run (issue 30's row).

Meld's ``meld/matchers/myers.py`` is not part of this project: give its path in MELD_MYERS
(e.g. from a Meld checkout) to measure it here; without it the recorded figures are shown.
GNU diff runs as a process (``diff old new``), so its figures include starting it.
BEFORE_TREE, a checkout of earlier code (``git archive <commit> | tar -x -C DIR``), adds its
figures too: its ``build_diff`` runs in a process of its own with that tree first on its path
(so every module it uses is the earlier one), one run per turn, timed there.

Run: MELD_MYERS=/path/to/myers.py .venv/bin/python bench/bench_diff_peers.py
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_diff import changed_copy, make_text

from app.core.diff_model import build_diff

CASES = [("1% changed", 0.01), ("30% changed", 0.30), ("all changed", None)]
RECORDED_MELD_MS = {"1% changed": 3.54, "30% changed": 14.66, "all changed": 4.44}
RECORDED_BEFORE_MS = {"1% changed": 5.04, "30% changed": 8.29, "all changed": 5.15}
REPEAT = 25


def load(path: str, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def best_ms(action: Callable[[], object]) -> float:
    times = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def interleaved_best_ms(runs: dict[str, Callable[[], object]]) -> dict[str, float]:
    """Each run's best time, the runs taken in turn REPEAT times: a busy spell of the
    machine hits them all alike."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(REPEAT):
        for name, action in runs.items():
            start = time.perf_counter()
            timed_there = action()
            elapsed = time.perf_counter() - start
            times[name].append(timed_there if isinstance(timed_there, float) else elapsed)
    return {name: min(found) * 1000 for name, found in times.items()}


_EARLIER = """
import sys, time
from app.core.diff_model import build_diff
old = new = ""
for line in sys.stdin:
    command, *paths = line.split("\\t")
    if command == "load":
        old, new = (open(p.strip(), encoding="utf-8").read() for p in paths)
        print("ok", flush=True)
    else:
        start = time.perf_counter()
        build_diff(old, new)
        print(time.perf_counter() - start, flush=True)
"""


class EarlierDiff:
    """The earlier tree's ``build_diff``, in a process of its own, timed there."""

    def __init__(self, tree: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", _EARLIER],
            cwd=tree,
            env={**os.environ, "PYTHONPATH": str(tree)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def _ask(self, line: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return self.process.stdout.readline().strip()

    def load(self, old: Path, new: Path) -> None:
        assert self._ask(f"load\t{old}\t{new}") == "ok"

    def run(self) -> float:
        """Seconds the earlier ``build_diff`` took, as timed in its own process."""
        return float(self._ask("run"))


def main() -> None:
    meld_path = os.environ.get("MELD_MYERS")
    meld = load(meld_path, "meld_myers") if meld_path else None
    before_tree = os.environ.get("BEFORE_TREE")
    before = EarlierDiff(Path(before_tree)) if before_tree else None
    gnu = shutil.which("diff")
    print("load average: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))
    print(
        "| two 256 KB versions | diff model (before → after) | Meld's Myers | GNU diff | × Meld |"
    )
    print("|---|---|---|---|---|")
    base = make_text(256 * 1024, seed=1)
    old = "".join(base)
    with tempfile.TemporaryDirectory() as tmp:
        for name, fraction in CASES:
            lines = make_text(256 * 1024, seed=3) if fraction is None else None
            new = "".join(lines or changed_copy(base, fraction or 0.0, seed=2))
            Path(tmp, "old").write_text(old)
            Path(tmp, "new").write_text(new)
            runs: dict[str, Callable[[], object]] = {
                "ours": lambda: build_diff(old, new),  # noqa: B023
            }
            if before is not None:
                before.load(Path(tmp, "old"), Path(tmp, "new"))
                runs["before"] = before.run
            if meld is not None:
                runs["meld"] = lambda: meld.MyersSequenceMatcher(
                    None,
                    old.split("\n"),
                    new.split("\n"),  # noqa: B023
                ).get_opcodes()
            if gnu:
                gnu_cmd = [gnu, str(Path(tmp, "old")), str(Path(tmp, "new"))]
                runs["gnu"] = lambda: subprocess.run(
                    gnu_cmd,  # noqa: B023
                    stdout=subprocess.DEVNULL,
                    check=False,
                )
            best = interleaved_best_ms(runs)
            ours = best["ours"]
            earlier = best.get("before", RECORDED_BEFORE_MS[name])
            meld_ms = best.get("meld", RECORDED_MELD_MS[name])
            meld_note = "" if meld is not None else " (recorded)"
            gnu_ms = best.get("gnu", float("nan"))
            before_note = "" if before is not None else " (recorded)"
            ratios = f"{earlier / meld_ms:.2f} → {ours / meld_ms:.2f}×"
            print(
                f"| {name} | {earlier:.2f}{before_note} → {ours:.2f} ms | {meld_ms:.2f} ms"
                f"{meld_note} | {gnu_ms:.2f} ms | {ratios} |",
                flush=True,
            )
    print("load average: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
