"""`taskdesk --smoke`: the real program on a fresh home, in a process of its own."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter
from pytestqt.qtbot import QtBot

from tests.app_process import app_env
from widgets.smoke_check import is_blank, visible_line

ROOT = Path(__file__).resolve().parents[2]


def _taskdesk(
    args: list[str], home: Path, timeout: float = 150
) -> subprocess.CompletedProcess[str]:
    env = app_env(home)
    return subprocess.run(
        [sys.executable, "-m", "widgets.launcher", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_smoke_opens_the_embedded_default_and_quits_once_the_task_is_painted(
    tmp_path: Path,
) -> None:
    shot = tmp_path / "window.png"
    result = _taskdesk(["--smoke", "--screenshot", str(shot)], tmp_path / "home")
    assert result.returncode == 0, result.stderr
    line = result.stdout.strip().splitlines()[-1]
    assert line.startswith("taskdesk: smoke check passed in ")
    assert "the Task of Dispatch" in line and "painted" in line
    # A fresh home: the local workspace was made there and the server was stopped after.
    assert (tmp_path / "home" / "data" / "local_workspace.sqlite3").is_file()
    image = QImage(str(shot))
    # The whole window: it opens at 90% of the screen at most (offscreen's is 800×800).
    assert image.width() >= 700 and image.height() >= 500
    assert not is_blank(image)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_smoke_fails_with_one_line_when_no_task_comes(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    result = _taskdesk(["--smoke", "--smoke-timeout", "4", "--server", url], tmp_path / "home")
    assert result.returncode == 1
    failures = [ln for ln in result.stderr.splitlines() if ln.startswith("taskdesk: smoke")]
    assert len(failures) == 1
    assert failures[0].startswith("taskdesk: smoke check failed: no Task on screen after 4 s")
    assert "smoke check passed" not in result.stdout


def test_screenshot_needs_smoke(tmp_path: Path) -> None:
    result = _taskdesk(["--screenshot", str(tmp_path / "x.png")], tmp_path / "home", 60)
    assert result.returncode == 2
    assert "--screenshot needs --smoke" in result.stderr


@pytest.mark.parametrize(
    ("markdown", "line"),
    [
        ("Triage the queue.\n\n## Work", "Triage the queue."),
        ("## Work\n- Read it", "Work"),
        ("> quoted words here", "quoted words here"),
        ("1. First step", "First step"),
        ("Use ![[org/x.md]] first\nPlain line here", "Plain line here"),
        ("**bold** only\n`code` only\n[link](http://x)", None),
        ("", None),
    ],
)
def test_the_line_looked_for_reads_the_same_rendered(markdown: str, line: str | None) -> None:
    assert visible_line(markdown) == line


def test_blank_means_one_flat_colour(qtbot: QtBot) -> None:
    image = QImage(400, 200, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    assert is_blank(image)
    painter = QPainter(image)
    painter.setFont(QFont("DejaVu Sans", 14))
    painter.setPen(Qt.GlobalColor.black)
    painter.drawText(QRect(10, 10, 380, 40), 0, "Triage the shared support queue.")
    painter.end()
    assert not is_blank(image)
    assert is_blank(image, QRect(0, 100, 400, 100))  # text only at the top
    assert is_blank(image, QRect(500, 500, 10, 10))  # outside the image
