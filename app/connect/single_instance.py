"""One Taskdesk per data folder: the first launch holds a lock, a later one asks it forward.

Two windows on one data folder would each keep a draft of the same agent, and drafts are
one per (server, agent): the last writer wins and the other window's keystrokes are gone.
So, as most desktop editors do, a second launch brings the running window to the front and
exits. The lock is an OS file lock (flock, or msvcrt's on Windows) held for the life of the
process: the system drops it however the process ends, kill -9 included, so a crash never
leaves a stale lock behind. Asking the running window forward is a file in the same small
folder, which the window watches (widgets/window/raise_requests.py). A Taskdesk whose
window has closed but whose process is still ending says so in the lock file (``ending``);
a launch meanwhile waits for it to end instead of asking a window that is gone to come
forward.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

INSTANCE_FOLDER = "instance"  # its own folder: a watcher on it never sees draft writes
LOCK_FILE = "taskdesk.lock"
RAISE_FILE = "raise-request"
ENDING = "ending"  # the lock file's first word once the holder's window has closed
ENDING_WAIT_S = 10.0  # a quitting Taskdesk ends within 2 s; a launch waits this long for it
POLL_S = 0.05


def instance_folder(data_dir: Path) -> Path:
    return data_dir / INSTANCE_FOLDER


class InstanceLock:
    """The running Taskdesk's hold on its data folder; ``release()`` (or exit) lets go."""

    def __init__(self, fd: int, folder: Path) -> None:
        self._fd: int | None = fd
        self.folder = folder

    def mark_ending(self) -> None:
        """The window has closed; the process is finishing its last writes."""
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, f"{ENDING} {os.getpid()}\n".encode(), 0)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the lock
            self._fd = None


def _try_lock(fd: int) -> bool:
    if sys.platform == "win32":  # pragma: no cover - Windows only
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def claim_data_folder(data_dir: Path, *, wait_s: float | None = None) -> InstanceLock | None:
    """The lock on ``data_dir``, or None when a running Taskdesk holds it. A Taskdesk that
    is ending is waited for, up to ``wait_s``; ``holder_is_ending`` tells the two apart after.

    Raises OSError when the folder can't be made or the lock file opened (a read-only
    home): the caller opens the window anyway and its start-up says what is wrong.
    """
    folder = instance_folder(data_dir)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    waited = ENDING_WAIT_S if wait_s is None else wait_s
    if not _try_lock(fd) and not _wait_while_ending(fd, folder, waited):
        os.close(fd)
        return None
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())  # for a person looking: who holds it
    return InstanceLock(fd, folder)


def holder_is_ending(data_dir: Path) -> bool:
    """Whether the Taskdesk holding ``data_dir`` has closed its window and is ending."""
    try:
        text = (instance_folder(data_dir) / LOCK_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return text.startswith(ENDING)


def _wait_while_ending(fd: int, folder: Path, wait_s: float) -> bool:
    """True once the lock is ours; False when the holder is running (not ending) or is
    still ending after ``wait_s``."""
    deadline = time.monotonic() + wait_s
    while holder_is_ending(folder.parent) and time.monotonic() < deadline:
        time.sleep(POLL_S)  # before any window or event loop: nothing else to do meanwhile
        if _try_lock(fd):
            return True
    return _try_lock(fd)


def request_raise(data_dir: Path) -> None:
    """Ask the Taskdesk holding ``data_dir`` to bring its window to the front."""
    folder = instance_folder(data_dir)
    partial = folder / f"{RAISE_FILE}.{os.getpid()}"
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # 0600 like the rest
    with os.fdopen(fd, "w", encoding="utf-8") as request:
        request.write(f"{os.getpid()}\n")
    partial.replace(folder / RAISE_FILE)  # appears whole: the watcher never reads half


def take_raise_request(folder: Path) -> bool:
    """True once per request written to ``folder`` (the request is consumed)."""
    try:
        (folder / RAISE_FILE).unlink()
    except FileNotFoundError:
        return False
    return True
