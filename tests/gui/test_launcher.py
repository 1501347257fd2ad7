"""The `taskdesk` entry point: one clear line without a display, no Qt for the command line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from widgets.launcher import NO_DISPLAY_MESSAGE, display_problem

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _env_without_display(tmp_path: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    env["TASKDESK_HOME"] = str(tmp_path)
    return env


def test_no_display_prints_one_line_and_exits_2(tmp_path: Path) -> None:
    result = _run(
        "import sys\n"
        "from widgets.launcher import main\n"
        "code = main([])\n"
        "assert 'PySide6' not in sys.modules, 'Qt was imported'\n"
        "raise SystemExit(code)\n",
        _env_without_display(tmp_path),
    )
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines == [NO_DISPLAY_MESSAGE]
    assert "QT_QPA_PLATFORM=offscreen taskdesk" in lines[0]
    assert "Xvfb" in lines[0]


def test_display_check_only_on_systems_that_need_a_display_server() -> None:
    assert display_problem({}, "linux") == NO_DISPLAY_MESSAGE
    assert display_problem({"DISPLAY": ":0"}, "linux") is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux") is None
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux") is None
    assert display_problem({"DISPLAY": "  "}, "linux") == NO_DISPLAY_MESSAGE
    assert display_problem({}, "darwin") is None
    assert display_problem({}, "win32") is None


def test_command_line_work_goes_to_the_cli_without_qt(tmp_path: Path) -> None:
    result = _run(
        "import sys\n"
        "from widgets.launcher import main\n"
        "code = main(['--version'])\n"
        "assert 'PySide6' not in sys.modules, 'Qt was imported'\n"
        "raise SystemExit(code)\n",
        _env_without_display(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    from app import __version__

    assert __version__ in result.stdout


def test_taskdesk_starts_on_the_local_workspace_and_stops_cleanly_on_sigterm(
    tmp_path: Path,
) -> None:
    """The real program, offscreen: it signs in to the local workspace; SIGTERM closes it
    and its local server process, leaving nothing running."""
    import signal
    import time

    env = {
        **_env_without_display(tmp_path),
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
    }
    env.pop("TASKDESK_TOKEN", None)
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from widgets.launcher import main; sys.exit(main([]))"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    log = tmp_path / "logs" / "taskdesk.log"
    deadline = time.monotonic() + 30
    try:
        # Polling a file another process writes: there is no Qt signal to wait on here.
        while "Signed in to the local workspace" not in (log.read_text() if log.exists() else ""):
            assert proc.poll() is None, proc.communicate()[1].decode()
            assert time.monotonic() < deadline, "the window never signed in"
            time.sleep(0.1)
        children = subprocess.run(
            ["pgrep", "-P", str(proc.pid)], capture_output=True, text=True, check=False
        ).stdout.split()
        assert children, "the local server runs in a process of its own"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()
    for pid in children:
        assert (
            not Path(f"/proc/{pid}").exists()
            or "zombie" in Path(f"/proc/{pid}/status").read_text().lower()
        )
