"""Benchmark: expanding a full-size Task against a bare regex scan of the same text.

Run: ``.venv/bin/python bench/bench_expander.py [--runs N]``. The workload is a 256 KB Task
with 200 embeds over an org of 500 notes (0.2 to 3 KB each, some embedding others for hop
2, a few embeds that cannot be reached). The baseline is ``EMBED_RE.findall`` over the same
Task, measured in the same run; the target is an expansion within 3x of it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

from app.core.expander import EMBED_RE, expand_embeds
from app.core.limits import TASK_MAX_BYTES, utf8_len
from app.core.models import AccessEntry, OrgFile, Reader

ORG_ID = "o_acme"
READER = Reader("a_scout", "guild_ops")
TARGET_RATIO = 3.0
WORDS = [
    "queue",
    "ticket",
    "escalate",
    "customer",
    "owner",
    "review",
    "draft",
    "summary",
    "policy",
    "incident",
    "weekly",
    "report",
    "source",
    "check",
    "confirm",
    "handoff",
    "priority",
    "deadline",
    "metric",
    "follow-up",
    "—",
    "résumé",
    "€",
]


def prose(rng: random.Random, size: int) -> str:
    """Markdown-ish paragraphs and bullets of about ``size`` bytes."""
    lines: list[str] = []
    total = 0
    while total < size:
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 16)))
        line = f"- {words}." if rng.random() < 0.4 else words.capitalize() + "."
        lines.append(line)
        total += utf8_len(line) + 1
    return "\n".join(lines) + "\n"


def build_org(rng: random.Random) -> dict[str, OrgFile]:
    """500 notes at the three levels; a tenth embed another note (hop 2); a few unreadable."""
    everyone = (AccessEntry("org", "read"),)
    paths = []
    for i in range(500):
        level = i % 3
        if level == 0:
            paths.append(f"org/{ORG_ID}/handbook/note-{i}.md")
        elif level == 1:
            paths.append(f"org/{ORG_ID}/guilds/guild_ops/note-{i}.md")
        else:
            paths.append(f"org/{ORG_ID}/agents/a_scout/note-{i}.md")
    files: dict[str, OrgFile] = {}
    for i, path in enumerate(paths):
        text = prose(rng, rng.randint(200, 3000))
        if i % 10 == 0:
            text += f"\nSee also ![[{rng.choice(paths)}]] and ![[org/{ORG_ID}/gone-{i}.md]].\n"
        access = () if i % 50 == 7 else everyone  # a few the agent cannot read
        files[path] = OrgFile(path, "note", title=f"Note {i}", text=text, access=access)
    return files


def build_task(rng: random.Random, files: dict[str, OrgFile]) -> str:
    """A Task just under 256 KB of prose with 200 embeds, a few of them unreachable."""
    paths = list(files)
    embeds = [f"![[{rng.choice(paths)}]]" for _ in range(192)]
    embeds += [
        "![[recipe:style-guide]]",
        "![[guild/escalation.md]]",
        f"![[org/o_other/{'x'}.md]]",
        f"![[org/{ORG_ID}/agents/a_scout/memory.md]]",
        f"![[org/{ORG_ID}/missing.md]]",
        f"![[org/{ORG_ID}/a/../b.md]]",
        "![[agent/scout/notes.md]]",
        f"![[ org/{ORG_ID}/handbook/note-0.md ]]",
    ]
    rng.shuffle(embeds)
    budget = TASK_MAX_BYTES - sum(utf8_len(e) + 2 for e in embeds)
    chunk = budget // (len(embeds) + 1)
    parts = []
    for embed in embeds:
        parts.append(prose(rng, chunk - 200))
        parts.append(embed + "\n")
    text = "".join(parts)
    text += prose(rng, TASK_MAX_BYTES - utf8_len(text) - 300)
    assert utf8_len(text) <= TASK_MAX_BYTES
    return text


def median_seconds(fn: Callable[[], object], runs: int) -> float:
    fn()  # warm up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=101, help="timed runs of each (median)")
    args = parser.parse_args()

    rng = random.Random(20260)
    files = build_org(rng)
    task = build_task(rng, files)

    def expand() -> object:
        return expand_embeds(task, org_id=ORG_ID, reader=READER, lookup=files)

    def scan() -> object:
        return EMBED_RE.findall(task)

    result = expand_embeds(task, org_id=ORG_ID, reader=READER, lookup=files)
    # What any expander must at least read: the Task, and each note whose embeds it resolves.
    scanned = [task, *(files[n.display_path].text or "" for n in result.notes if n.hop == 1)]

    def scan_all() -> object:
        return [EMBED_RE.findall(text) for text in scanned]

    baseline = median_seconds(scan, args.runs)
    floor = median_seconds(scan_all, args.runs)
    expander = median_seconds(expand, args.runs)
    ratio = expander / baseline

    print(
        f"task: {utf8_len(task):,} bytes, {len(EMBED_RE.findall(task))} embeds, {len(files)} notes"
    )
    print(
        f"expansion: {len(result.notes)} notes inlined "
        f"({sum(1 for n in result.notes if n.hop == 2)} at hop 2), "
        f"{len(result.broken)} unreachable, {result.embedded_bytes:,} bytes embedded, "
        f"{utf8_len(result.text):,} bytes out"
    )
    print(f"median of {args.runs} runs")
    print(f"  baseline EMBED_RE.findall:   {baseline * 1e3:8.3f} ms")
    print(f"  findall, Task + hop-1 notes: {floor * 1e3:8.3f} ms ({floor / baseline:.2f}x)")
    print(f"  expand_embeds:               {expander * 1e3:8.3f} ms")
    verdict = "met" if ratio <= TARGET_RATIO else "missed"
    print(
        f"  ratio:                       {ratio:8.2f}x (target <= {TARGET_RATIO:.0f}x: {verdict})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
