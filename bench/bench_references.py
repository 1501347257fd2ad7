"""Benchmark: the References of a full-size Task against the expander alone on the same input.

Run: ``.venv/bin/python bench/bench_references.py [--runs N]``. The workload is
``bench_expander.py``'s: a 256 KB Task with 200 embeds over an org of 500 notes (some
embedding others for hop 2, a few embeds unreachable for each kind of reason). A second
input is the same Task naming 50 files in its prose (``org/<org>/…`` without ``![[…]]``),
trimmed back under 256 KB. The baseline is ``expand_embeds`` on the same input, measured in
the same run; the target is References (expansion included) within 2x of it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

# bench/ is on the path when a script runs: the expander benchmark's workload, unchanged.
from bench_expander import ORG_ID, READER, build_org, build_task

from app.core.expander import expand_embeds
from app.core.limits import TASK_MAX_BYTES, utf8_len
from app.core.models import OrgFile
from app.core.references import find_references

TARGET_RATIO = 2.0


def with_named_files(rng: random.Random, task: str, files: dict[str, OrgFile]) -> str:
    """The Task with 50 display paths written into its prose, still at most 256 KB."""
    lines = task.split("\n")
    paths = list(files)
    for _ in range(50):
        at = rng.randrange(len(lines))
        lines[at] += f" See {rng.choice(paths)}."
    named = "\n".join(lines)
    while utf8_len(named) > TASK_MAX_BYTES:
        named = named[: -(utf8_len(named) - TASK_MAX_BYTES)]
    return named


def paired_medians(
    first: Callable[[], object], second: Callable[[], object], runs: int
) -> tuple[float, float]:
    """Median times of two functions run in turns, so that a busy machine slows both alike."""
    first()
    second()  # warm up
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(runs):
        for fn, spent in ((first, times[0]), (second, times[1])):
            start = time.perf_counter()
            fn()
            spent.append(time.perf_counter() - start)
    return statistics.median(times[0]), statistics.median(times[1])


def measure(label: str, task: str, files: dict[str, OrgFile], runs: int) -> float:
    def expand() -> object:
        return expand_embeds(task, org_id=ORG_ID, reader=READER, lookup=files)

    def references() -> object:
        return find_references(task, org_id=ORG_ID, reader=READER, lookup=files)

    found = find_references(task, org_id=ORG_ID, reader=READER, lookup=files)
    walked = list(found.walk())
    counts = {o: sum(1 for r in walked if r.outcome == o) for o in ("inlined", "marker", "named")}
    reasons = sorted({r.reason.code for r in walked if r.reason is not None})
    baseline, measured = paired_medians(expand, references, runs)
    ratio = measured / baseline
    verdict = "met" if ratio <= TARGET_RATIO else "missed"
    print(f"{label}: {utf8_len(task):,} bytes, {len(walked)} references")
    print(
        f"  {counts['inlined']} inlined, {counts['marker']} markers "
        f"({', '.join(reasons)}), {counts['named']} named files"
    )
    print(f"  baseline expand_embeds:      {baseline * 1e3:8.3f} ms")
    print(f"  find_references:             {measured * 1e3:8.3f} ms")
    print(
        f"  ratio:                       {ratio:8.2f}x (target <= {TARGET_RATIO:.0f}x: {verdict})"
    )
    return ratio


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=51, help="timed runs of each (median)")
    args = parser.parse_args()

    rng = random.Random(20260)
    files = build_org(rng)
    task = build_task(rng, files)
    print(f"{len(files)} notes; median of {args.runs} runs of each, taken in turns")
    measure("the expander benchmark's Task", task, files, args.runs)
    measure("the same Task naming 50 files", with_named_files(rng, task, files), files, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
