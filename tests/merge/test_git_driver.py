"""`taskdesk merge` as git's merge driver, in a real repository: the setup docs/MERGE.md gives."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TASKDESK = [sys.executable, "-c", "import sys; from widgets.launcher import main; sys.exit(main())"]
# docs/MERGE.md: git passes the ancestor (%O), ours (%A, where the result must be left) and
# theirs (%B); ours is mine when I merge a colleague's branch into mine.
DRIVER = " ".join(map(shlex.quote, TASKDESK)) + " merge --marker-size %L --output %A %O %B %A"

BASE = (
    "# Support agent\n\n"
    "The agent answers politely. It never shares customer data. "
    "It signs every reply with its name.\n\n"
    "## Tone\n\nShort sentences.\n"
)


def git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        "HOME": str(repo.parent),
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Ann",
        "GIT_AUTHOR_EMAIL": "ann@example.com",
        "GIT_COMMITTER_NAME": "Ann",
        "GIT_COMMITTER_EMAIL": "ann@example.com",
        "LC_ALL": "C",
    }
    return subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def repository(tmp_path: Path, theirs: str, mine: str, *, driver: bool) -> Path:
    """A repository whose main branch edits BASE into ``mine`` and whose branch
    ``colleague`` edits it into ``theirs``; main is checked out."""
    repo = tmp_path / "tasks"
    repo.mkdir()
    assert git(repo, "init", "-q", "-b", "main").returncode == 0
    if driver:
        (repo / ".gitattributes").write_text("*.md merge=taskdesk\n", encoding="utf-8")
        git(repo, "config", "merge.taskdesk.name", "Taskdesk three-way merge for Task files")
        git(repo, "config", "merge.taskdesk.driver", DRIVER)
    task = repo / "task.md"
    task.write_bytes(BASE.encode())
    for args in (("add", "-A"), ("commit", "-qm", "base"), ("checkout", "-qb", "colleague")):
        assert git(repo, *args).returncode == 0
    task.write_bytes(theirs.encode())
    assert git(repo, "commit", "-qam", "theirs").returncode == 0
    assert git(repo, "checkout", "-q", "main").returncode == 0
    task.write_bytes(mine.encode())
    assert git(repo, "commit", "-qam", "mine").returncode == 0
    return repo


MINE = BASE.replace("answers politely", "answers kindly")
THEIRS = BASE.replace("signs every reply", "signs each reply")


def test_without_the_driver_git_conflicts_on_one_paragraph(tmp_path: Path) -> None:
    repo = repository(tmp_path, THEIRS, MINE, driver=False)
    assert git(repo, "merge", "-q", "--no-edit", "colleague").returncode != 0
    assert "<<<<<<<" in (repo / "task.md").read_text(encoding="utf-8")


def test_the_driver_merges_two_sentences_of_one_paragraph(tmp_path: Path) -> None:
    repo = repository(tmp_path, THEIRS, MINE, driver=True)
    done = git(repo, "merge", "-q", "--no-edit", "colleague")
    assert done.returncode == 0, done.stdout + done.stderr
    merged = BASE.replace("answers politely", "answers kindly").replace("every", "each")
    assert (repo / "task.md").read_bytes() == merged.encode()
    assert git(repo, "status", "--porcelain").stdout == ""  # committed, nothing left over
    assert git(repo, "show", "HEAD:task.md").stdout == merged


def test_the_driver_leaves_a_true_conflict_marked_for_git(tmp_path: Path) -> None:
    repo = repository(
        tmp_path,
        BASE.replace("politely", "briefly"),
        BASE.replace("politely", "kindly"),
        driver=True,
    )
    assert git(repo, "merge", "-q", "--no-edit", "colleague").returncode != 0
    text = (repo / "task.md").read_text(encoding="utf-8")
    assert "<<<<<<< mine\nThe agent answers kindly." in text
    assert "||||||| base\nThe agent answers politely." in text
    assert "=======\nThe agent answers briefly." in text and ">>>>>>> theirs\n" in text
    unmerged = git(repo, "diff", "--name-only", "--diff-filter=U").stdout.split()
    assert unmerged == ["task.md"]
