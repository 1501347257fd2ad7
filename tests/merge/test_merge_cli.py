"""`taskdesk merge` as a real process: exact bytes out, exit codes, one-line refusals."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The console script's own entry point (pyproject's [project.scripts]), run as a real process.
TASKDESK = [sys.executable, "-c", "import sys; from widgets.launcher import main; sys.exit(main())"]


def taskdesk(*args: str | Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*TASKDESK, *map(str, args)],
        capture_output=True,
        timeout=60,
        cwd=cwd,
        check=False,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "LC_ALL": "C"},
    )


def versions(folder: Path, base: bytes, theirs: bytes, mine: bytes) -> list[Path]:
    paths = [folder / "base.md", folder / "theirs.md", folder / "mine.md"]
    for path, data in zip(paths, (base, theirs, mine), strict=True):
        path.write_bytes(data)
    return paths


def test_a_clean_merge_prints_the_exact_bytes_and_exits_0(tmp_path: Path) -> None:
    base = "Greet the user.\r\nZero\x00byte 🙂\r\nNo final newline".encode()
    theirs = "Greet the user warmly.\r\nZero\x00byte 🙂\r\nNo final newline".encode()
    mine = "Greet the user.\r\nZero\x00byte 🙂\r\nNo final newline, still 👍".encode()
    done = taskdesk("merge", *versions(tmp_path, base, theirs, mine))
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout == (
        "Greet the user warmly.\r\nZero\x00byte 🙂\r\nNo final newline, still 👍".encode()
    )


def test_a_conflict_prints_git_markers_and_exits_1(tmp_path: Path) -> None:
    paths = versions(tmp_path, b"a\nb\nc\n", b"a\nB\nc\n", b"a\nbb\nc\n")
    done = taskdesk("merge", *paths)
    assert (done.returncode, done.stderr) == (1, b"")
    assert done.stdout == (b"a\n<<<<<<< mine\nbb\n||||||| base\nb\n=======\nB\n>>>>>>> theirs\nc\n")


def test_output_writes_the_result_to_a_file_and_prints_nothing(tmp_path: Path) -> None:
    paths = versions(tmp_path, b"a\nb\nc\n", b"a\nB\nc\n", b"a\nbb\nc\n")
    done = taskdesk("merge", "--marker-size", "3", "--output", paths[2], *paths)
    assert (done.returncode, done.stdout, done.stderr) == (1, b"", b"")
    assert paths[2].read_bytes() == b"a\n<<< mine\nbb\n||| base\nb\n===\nB\n>>> theirs\nc\n"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("gone.md", "gone.md: no such file"),
        ("folder", "folder is a folder, not a file"),
        ("latin1.md", "latin1.md: not UTF-8 text (byte 3)"),  # as `render` says it
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path: Path, name: str, message: str) -> None:
    base, theirs, _mine = versions(tmp_path, b"a\n", b"a\n", b"a\n")
    (tmp_path / "folder").mkdir()
    (tmp_path / "latin1.md").write_bytes(b"caf\xe9\n")
    done = taskdesk("merge", base, theirs, tmp_path / name)
    assert done.returncode == 2 and done.stdout == b""
    [line] = done.stderr.decode().splitlines()
    assert line.startswith("taskdesk: ") and line.endswith(message)


def test_missing_arguments_exit_2_with_one_line(tmp_path: Path) -> None:
    base, theirs, _mine = versions(tmp_path, b"a\n", b"a\n", b"a\n")
    for args in (("merge", base, theirs), ("merge", "--marker-size", "0", base, theirs, base)):
        done = taskdesk(*args)
        assert done.returncode == 2 and done.stdout == b""
        assert len(done.stderr.decode().splitlines()) == 1
