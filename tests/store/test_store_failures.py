"""A full disk, a read-only or wrong folder, a damaged or newer file: StoreError, in words."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from app.store import LocalStore, StoreError, StoreProblem

SERVER = "http://127.0.0.1:8000"


def _mount_tmpfs(where: Path, size: str) -> None:
    where.mkdir(parents=True, exist_ok=True)
    result = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        pytest.skip(f"needs a small tmpfs and mounting isn't permitted here: {result.stderr}")


def _unmount(where: Path) -> None:
    subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 512 KiB file system: room for the store, not for a large draft."""
    where = tmp_path / "tiny"
    _mount_tmpfs(where, "512k")
    yield where
    _unmount(where)


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A real read-only file system (tests run as root, and root ignores chmod)."""
    where = tmp_path / "ro"
    _mount_tmpfs(where, "1m")
    try:
        with LocalStore(where / "store.sqlite3") as store:
            store.save_draft(SERVER, "a_scout", "typed before the folder went read-only", 1)
        result = subprocess.run(
            ["mount", "-o", "remount,ro", str(where)], capture_output=True, text=True, check=False
        )
        if result.returncode != 0:
            pytest.skip(f"can't remount read-only here: {result.stderr}")
        yield where
    finally:
        _unmount(where)


def test_full_disk_is_reported_and_nothing_is_lost(tiny_disk: Path) -> None:
    path = tiny_disk / "store.sqlite3"
    with LocalStore(path) as store:
        store.save_draft(SERVER, "a_scout", "small and safe", 1)
        with pytest.raises(StoreError) as caught:
            store.save_draft(SERVER, "a_scout", "x" * 2_000_000, 2)
        error = caught.value
        assert error.problem is StoreProblem.DISK_FULL
        assert error.message == (
            f"Can't save the draft: the disk is full ({path}). "
            "Your text is still in the editor; free some space."
        )
        assert str(error) == error.message
        # The failed write left the earlier draft whole, and the store still works.
        assert store.get_draft(SERVER, "a_scout").text == "small and safe"  # type: ignore[union-attr]
        store.save_draft(SERVER, "a_scout", "small again", 3)
    with LocalStore(path) as reopened, closing(sqlite3.connect(path)) as raw:
        assert reopened.get_draft(SERVER, "a_scout").text == "small again"  # type: ignore[union-attr]
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_full_disk_while_keeping_history(tiny_disk: Path) -> None:
    with LocalStore(tiny_disk / "store.sqlite3") as store:
        with pytest.raises(StoreError, match="keep your text in the local history: the disk"):
            store.add_history(SERVER, "a_scout", "y" * 2_000_000, "discarded", 1)
        assert store.history(SERVER, "a_scout") == []


def test_read_only_folder_is_reported_at_once(read_only_folder: Path) -> None:
    path = read_only_folder / "store.sqlite3"
    with pytest.raises(StoreError) as caught:
        LocalStore(path)
    assert caught.value.problem is StoreProblem.READ_ONLY
    assert caught.value.message.startswith(
        f"Can't open the local store: the folder is read-only ({path}). Make {read_only_folder}"
        " writable"
    )


def test_fresh_store_in_a_read_only_folder(read_only_folder: Path) -> None:
    with pytest.raises(StoreError, match="the folder is read-only") as caught:
        LocalStore(read_only_folder / "new" / "store.sqlite3")
    assert caught.value.problem is StoreProblem.READ_ONLY


def test_store_path_that_is_a_folder(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    path.mkdir()
    with pytest.raises(StoreError) as caught:
        LocalStore(path)
    assert caught.value.problem is StoreProblem.CANNOT_OPEN
    assert caught.value.message == (
        f"Can't open the local store: the local store can't be opened ({path}). "
        f"Check that {path} is a file in a folder you can write to."
    )


def test_store_folder_that_is_a_file(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError) as caught:
        LocalStore(blocker / "store.sqlite3")
    assert caught.value.problem is StoreProblem.CANNOT_OPEN
    assert str(blocker / "store.sqlite3") in caught.value.message


def test_damaged_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    path.write_bytes(b"this is not a database, it is a shopping list\n" * 200)
    with pytest.raises(StoreError) as caught:
        LocalStore(path)
    assert caught.value.problem is StoreProblem.DAMAGED
    assert f"Move {path} aside and restart Taskdesk" in caught.value.message


def test_store_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    with closing(sqlite3.connect(path)) as raw:
        raw.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match="made by a newer Taskdesk") as caught:
        LocalStore(path)
    assert caught.value.problem is StoreProblem.TOO_NEW


def test_closed_store_says_so(tmp_path: Path) -> None:
    store = LocalStore(tmp_path / "store.sqlite3")
    store.close()
    with pytest.raises(StoreError) as caught:
        store.save_draft(SERVER, "a_scout", "late", 1)
    assert caught.value.problem is StoreProblem.CLOSED


CLOSE_WHILE_WRITING = """
import sys, threading
from pathlib import Path
from app.core.models import Me
from app.store import LocalStore, StoreError

folder = Path(sys.argv[1])
for n in range(40):
    store = LocalStore(folder / f"store-{n}.sqlite3")
    writing, outcomes = threading.Event(), []

    def write() -> None:
        try:
            while True:
                store.put_me("k", Me("u_ann", "Ann " * 500, "operator", "o_acme"))
                writing.set()
        except StoreError as exc:
            outcomes.append(exc.message)

    worker = threading.Thread(target=write)
    worker.start()
    writing.wait()
    store.close()  # from another thread, in the middle of the writes
    worker.join()
    assert outcomes and "closed" in outcomes[0], outcomes
print("ok")
"""


def test_closing_while_another_thread_writes_waits_for_the_write(tmp_path: Path) -> None:
    """The window closes the store while a worker may be writing the offline copy: the write
    ends first, the next one is told the store is closed. (Before, the connection was closed
    under the running statement and the process died with SIGSEGV: hence a child process.)"""
    done = subprocess.run(
        [sys.executable, "-c", CLOSE_WHILE_WRITING, str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=120,
    )
    assert (done.returncode, done.stdout) == (0, "ok\n"), done.stderr[-2000:]
