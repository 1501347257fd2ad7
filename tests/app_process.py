"""Running the real `taskdesk` (or a few lines of it) in a process of its own in a test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``python -c code`` at the project's root: what a fresh process imports and prints."""
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def app_env(home: Path) -> dict[str, str]:
    """This environment with a fresh ``home``, no display and never the operator's keyring
    or token (no TASKDESK_* of the caller's leaks in)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TASKDESK_")}
    env.update(
        TASKDESK_HOME=str(home),
        QT_QPA_PLATFORM="offscreen",
        PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring",
    )
    return env
