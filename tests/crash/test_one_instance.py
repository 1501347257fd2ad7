"""One Taskdesk per data folder, with real processes: a second launch brings the first
forward and opens nothing (two windows would overwrite each other's drafts), and a kill -9
leaves no stale lock behind."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.connect.single_instance import (
    LOCK_FILE,
    RAISE_FILE,
    claim_data_folder,
    instance_folder,
    request_raise,
)
from tests.app_process import app_env
from widgets.window.raise_requests import RaiseOnRequest

ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 60.0  # a bound that ends a hung test, not a speed check


def launcher(home: Path, *args: str) -> subprocess.Popen[str]:
    env = app_env(home)
    return subprocess.Popen(
        [sys.executable, "-m", "widgets.launcher", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.05)  # another process's progress: nothing in this one to wait on


def test_a_second_launch_brings_the_first_forward_and_a_kill_leaves_no_stale_lock(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    folder = instance_folder(home / "data")
    first = launcher(home)
    try:
        lock = folder / LOCK_FILE
        wait_for(
            lambda: lock.is_file() and lock.read_text().strip() == str(first.pid),
            "the first Taskdesk holds the data folder",
        )
        second = launcher(home)
        _, err = second.communicate(timeout=WAIT_S)
        assert second.returncode == 0, err
        assert "already open on this data folder" in err
        assert str(home / "data") in err
        wait_for(lambda: not (folder / RAISE_FILE).exists(), "the first took the request")
        assert first.poll() is None, "the first Taskdesk keeps running"
    finally:
        first.send_signal(signal.SIGKILL)
        first.communicate(timeout=WAIT_S)
    again = launcher(home, "--smoke")
    out, err = again.communicate(timeout=150)
    assert again.returncode == 0, err  # the killed one's lock went with it
    assert "smoke check passed" in out


def test_the_lock_is_held_by_one_process_and_dropped_by_a_kill(tmp_path: Path) -> None:
    data = tmp_path / "data"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path;"
            "from app.connect.single_instance import claim_data_folder;"
            "lock = claim_data_folder(Path(sys.argv[1])); print('held', flush=True);"
            "time.sleep(600)",
            str(data),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert claim_data_folder(data) is None
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.communicate(timeout=WAIT_S)
    lock = claim_data_folder(data)
    assert lock is not None
    lock.release()


def test_a_request_raises_the_window(qtbot: QtBot, tmp_path: Path) -> None:
    data = tmp_path / "data"
    lock = claim_data_folder(data)
    assert lock is not None
    window = QWidget()
    qtbot.addWidget(window)
    window.showMinimized()
    watcher = RaiseOnRequest(window, lock.folder)
    request_raise(data)
    qtbot.waitUntil(lambda: watcher.raised == 1)
    assert not window.isMinimized()
    assert not (lock.folder / RAISE_FILE).exists()
    lock.release()
