"""Running `taskdesk` as a real process, as a script or CI would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def taskdesk(*args: str | Path, token: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TASKDESK_TOKEN"}
    if token is not None:
        env["TASKDESK_TOKEN"] = token
    return subprocess.run(
        [sys.executable, "-m", "app", *map(str, args)],
        capture_output=True,
        cwd=REPO,
        timeout=120,
        env=env,
        encoding="utf-8",
        check=False,
    )


def one_clear_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("taskdesk: ") and done.stderr.count("\n") == 1, done.stderr
    return done.stderr.strip()
