"""Quitting while a slow server holds a request ends the process at once (the draft is on
disk), and a launch while a Taskdesk is still ending waits for it instead of asking a window
that is gone to come forward. Real processes throughout."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.connect import single_instance
from app.connect.single_instance import claim_data_folder, holder_is_ending
from app.server import start_server
from tests.app_process import app_env
from tests.crash.test_one_instance import ROOT, WAIT_S, wait_for
from tests.faultproxy import Fault, FaultProxy
from tests.live_server import WORKSPACE_BASIC
from widgets import launcher

QUIT_BOUND_S = 10.0  # ends a hung test; today's process stayed up to the 60 s request deadline


def test_quit_ends_at_once_while_a_request_hangs(tmp_path: Path) -> None:
    with (
        start_server(WORKSPACE_BASIC, tmp_path / "db.sqlite3") as server,
        FaultProxy(server.url) as proxy,
    ):
        proxy.fault(Fault.HANG, path=r"task\.md")
        env = app_env(tmp_path / "home")
        env["TASKDESK_TOKEN"] = "ann-secret"
        app = subprocess.Popen(
            [sys.executable, "-m", "widgets.launcher", "--server", proxy.url],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            wait_for(
                lambda: (
                    app.poll() is not None or any(e.fault is Fault.HANG for e in proxy.exchanges)
                ),
                "the window asked for a Task, which the server never answers",
            )
            if app.poll() is not None:  # ended before it asked: say how, not a 60 s wait
                out, err = app.communicate()
                pytest.fail(f"Taskdesk ended ({app.returncode}) before asking: {out}{err}")
            app.send_signal(signal.SIGTERM)  # the session ends: keep the draft and quit
            asked = time.monotonic()
            try:
                _, err = app.communicate(timeout=QUIT_BOUND_S)
            except subprocess.TimeoutExpired:
                pytest.fail(f"Taskdesk was still running {QUIT_BOUND_S:g} s after quitting")
            took = time.monotonic() - asked
        finally:
            if app.poll() is None:
                app.kill()
            app.communicate(timeout=WAIT_S)  # closes its pipes whichever way it ended
    assert app.returncode == 0, err
    assert "Traceback" not in err
    print(f"quit took {took:.2f} s with a request hanging")


def _holder(data: Path) -> subprocess.Popen[str]:
    """A process that holds ``data``, says its window closed, and ends on a line of input."""
    code = (
        "import sys, time; from pathlib import Path;"
        "from app.connect.single_instance import claim_data_folder;"
        "lock = claim_data_folder(Path(sys.argv[1])); lock.mark_ending();"
        "print('ending', flush=True); sys.stdin.readline()"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code, str(data)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "ending"
    return holder


def test_a_launch_waits_for_a_taskdesk_that_is_ending(tmp_path: Path) -> None:
    data = tmp_path / "data"
    holder = _holder(data)
    assert holder_is_ending(data)
    assert holder.stdin is not None
    holder.stdin.write("end\n")  # the old process finishes while the new one waits
    holder.stdin.flush()
    lock = claim_data_folder(data, wait_s=WAIT_S)
    holder.communicate(timeout=WAIT_S)
    assert lock is not None, "the launch gave up on a Taskdesk that was ending"
    assert not holder_is_ending(data)
    lock.release()


def test_a_launch_says_so_when_the_ending_taskdesk_takes_too_long(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    holder = _holder(home / "data")
    try:
        monkeypatch.setenv("TASKDESK_HOME", str(home))
        monkeypatch.setattr(single_instance, "ENDING_WAIT_S", 0.5)
        proceed, lock = launcher.claim_data_folder()
    finally:
        holder.kill()
        holder.communicate(timeout=WAIT_S)
    assert (proceed, lock) == (False, None)
    said = capsys.readouterr().err
    assert "is still closing; start it again in a moment" in said
    assert "brought to the front" not in said
