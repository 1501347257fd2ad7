"""Crash benchmark: kill -9 the real app mid-typing, many times, and measure what comes back.

Each kill: the real window (``tests/crash/typing_app.py``, started as the launcher starts
it) types into the Task editor, a character every 20–60 ms, against a reference server on
loopback; after 0.5–4 s it gets SIGKILL; the next start on the same folders must offer the
draft (naming the agent, the base version and the time), and Recover must put it back.

Per kill it prints the lag (kill time − time of the keystroke whose text came back) and the
text's age (kill time − the last moment the editor held that text; the issue's promise is
at most 1 s). Baseline, measured in the same run: one durable draft commit
(``LocalStore.save_draft``, synchronous=FULL) on this disk, which any lag beyond the draft
timer's own wait is made of.

Run: ``.venv/bin/python bench/bench_crash.py [--kills 50] [--seed N]``. Exit status 1 when
any kill lost text or any offer was wrong.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.client import TaskdeskClient  # noqa: E402  (after the path is set)
from app.desk.session import DRAFT_DEBOUNCE_MS, DRAFT_MAX_WAIT_MS  # noqa: E402
from app.server import start_server  # noqa: E402
from app.store import LocalStore  # noqa: E402
from tests.crash.crash_rounds import MAX_TEXT_AGE_S, CrashRun, Expected, Verdict  # noqa: E402

WORKSPACE = ROOT / "tests" / "data" / "workspace_basic.json"
AGENT_ID, AGENT_NAME, TOKEN = "a_scout", "Scout", "ann-secret"
COMMITS = 200


def commit_baseline(folder: Path, text: str) -> list[float]:
    """Seconds per durable draft write of ``text`` (what the app's disk lane does)."""
    times: list[float] = []
    with LocalStore(folder / "baseline.sqlite3") as store:
        for n in range(COMMITS):
            started = time.perf_counter()
            store.save_draft("bench", AGENT_ID, f"{text}{n}", 3, agent_name=AGENT_NAME)
            times.append(time.perf_counter() - started)
    return times


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def print_verdict(verdict: Verdict) -> None:
    lag = (
        f"{verdict.keystroke_lag_s * 1000:7.0f}"
        if verdict.keystroke_lag_s is not None
        else "      ?"
    )
    age = f"{verdict.text_age_s * 1000:7.0f}" if verdict.text_age_s is not None else "      ?"
    status = "ok" if verdict.ok else "FAIL: " + "; ".join(verdict.problems)
    print(
        f"{verdict.round:4d} {verdict.typed_for_s:8.2f} {verdict.keystrokes:6d} "
        f"{'yes' if verdict.offered else 'no ':>7} {lag} {age} {verdict.recovered_chars:7d}  "
        f"{status}",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(2**31)

    with tempfile.TemporaryDirectory(prefix="taskdesk-crash-") as tmp:
        folder = Path(tmp)
        print(f"Crash benchmark: {args.kills} kills, seed {seed}, draft timers: "
              f"{DRAFT_DEBOUNCE_MS} ms after the last keystroke, at most {DRAFT_MAX_WAIT_MS} ms "
              "after the first unsaved one")  # fmt: skip
        with start_server(WORKSPACE, folder / "server.sqlite3") as server:
            client = TaskdeskClient(server.url, TOKEN)
            start = client.get_task(AGENT_ID)
            baseline = commit_baseline(folder, start.content + " typed" * 200)
            print(
                f"baseline: durable draft commit (save_draft, ~{len(start.content) + 1200} "
                f"chars) median {statistics.median(baseline) * 1000:.1f} ms, "
                f"p99 {percentile(baseline, 0.99) * 1000:.1f} ms, "
                f"max {max(baseline) * 1000:.1f} ms over {COMMITS} writes"
            )

            def server_unchanged() -> str | None:
                now = client.get_task(AGENT_ID)
                if (now.version, now.content) != (start.version, start.content):
                    return f"the server's Task changed to v{now.version}: a crash saved it"
                return None

            print("kill  typed_s  keys  offered  lag_ms  age_ms   chars  verdict")
            run = CrashRun(
                server_url=server.url,
                token=TOKEN,
                home=folder / "home",
                work_dir=folder / "rounds",
                expected=Expected(AGENT_ID, AGENT_NAME, start.version),
                server_check=server_unchanged,
                rng=random.Random(seed),
                on_verdict=print_verdict,
            )
            began = time.monotonic()
            verdicts = run.run(args.kills)
            took = time.monotonic() - began
            client.close()

    survived = sum(v.ok for v in verdicts)
    lost = sum(v.lost for v in verdicts)
    lags = [v.keystroke_lag_s for v in verdicts if v.keystroke_lag_s is not None]
    ages = [v.text_age_s for v in verdicts if v.text_age_s is not None]
    print()
    print(f"kills survived: {survived}/{len(verdicts)} in {took:.0f} s")
    if lags:
        print(
            f"lag (kill − keystroke recovered): median {statistics.median(lags) * 1000:.0f} ms, "
            f"worst {max(lags) * 1000:.0f} ms"
        )
        print(
            f"text age (kill − last moment the editor held it): median "
            f"{statistics.median(ages) * 1000:.0f} ms, worst {max(ages) * 1000:.0f} ms "
            f"(limit {MAX_TEXT_AGE_S * 1000:.0f} ms)"
        )
    print(f"drafts offered: {sum(v.offered for v in verdicts)}/{len(verdicts)}")
    print(f"lost: {lost} (must be 0)")
    return 0 if survived == len(verdicts) and lost == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
