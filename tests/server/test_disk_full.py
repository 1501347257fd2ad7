"""A full disk under the database: 507 in one sentence, one log line, nothing acknowledged lost."""

from __future__ import annotations

import logging
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from app.server import start_server
from tests.live_server import WORKSPACE_BASIC
from tests.server.http_calls import TIMEOUT, WRITER_TASK

ANN = {"Authorization": "Bearer ann-secret"}
DISK_BYTES = 6 * 1024 * 1024
FREE_BYTES = 1536 * 1024  # room for a few 200 KB saves (each also written to the WAL)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 6 MB tmpfs, unmounted afterwards."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={DISK_BYTES}", "tmpfs", str(disk)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip("mounting a small tmpfs is not permitted here")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def _fill(disk: Path, leave: int) -> Path:
    """A file that takes all of the disk but ``leave`` bytes."""
    stat = os.statvfs(disk)
    filler = disk / "filler"
    filler.write_bytes(b"\0" * max(0, stat.f_bavail * stat.f_frsize - leave))
    return filler


def _save(url: str, content: str, version: int) -> requests.Response:
    return requests.put(
        url + WRITER_TASK,
        json={"content": content, "expected_version": version},
        headers=ANN,
        timeout=TIMEOUT,
    )


def test_a_full_disk_answers_507_logs_once_and_loses_nothing_acknowledged(
    small_disk: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    with start_server(WORKSPACE_BASIC, small_disk / "db.sqlite3") as server:
        version = requests.get(server.url + WRITER_TASK, headers=ANN, timeout=TIMEOUT).json()[
            "version"
        ]
        filler = _fill(small_disk, FREE_BYTES)
        acknowledged: list[str] = []
        refusals: list[requests.Response] = []
        for attempt in range(60):
            content = f"save {attempt}\n" + f"{attempt:04d} words of the Task\n" * 9000
            answer = _save(server.url, content, version)
            if answer.status_code == 200:
                acknowledged.append(content)
                version = answer.json()["version"]
            else:
                refusals.append(answer)
        assert refusals, "the disk never filled"
        assert acknowledged, "not one save fitted before the disk filled"
        for answer in refusals:
            assert answer.status_code == 507, answer.text
            assert answer.json() == {"error": "the server's disk is full"}
        # Reads still work, and say the last acknowledged save.
        live = requests.get(server.url + WRITER_TASK, headers=ANN, timeout=TIMEOUT).json()
        assert (live["version"], live["content"]) == (version, acknowledged[-1])
        kept = {revision["content"] for revision in live["revisions"]}
        assert set(acknowledged[:-1]) <= kept
        # Room again: the next save lands.
        filler.unlink()
        again = _save(server.url, "after the disk was cleared", version)
        assert again.status_code == 200, again.text
    full_lines = [r for r in caplog.records if "disk" in r.getMessage().lower()]
    assert len(full_lines) == 1, [r.getMessage() for r in full_lines]
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
