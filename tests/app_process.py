"""The environment for running the real `taskdesk` in a process of its own in a test."""

from __future__ import annotations

import os
from pathlib import Path


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
