"""``taskdesk render``: a Markdown file's preview HTML written beside it, for scripts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from app.render import render_markdown

REPO = Path(__file__).resolve().parents[2]


def taskdesk(*args: str | Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "app", *map(str, args)],
        capture_output=True,
        cwd=REPO,
        timeout=60,
    )


def test_each_file_gets_the_html_the_preview_shows(tmp_path: Path) -> None:
    note = tmp_path / "rules.md"
    note.write_text("Rules:\n- one\n- [x] two\n\n![[org/o/n.md]] <script>x</script>", "utf-8")
    other = tmp_path / "other.md"
    other.write_text("~~old~~ https://example.com", "utf-8")
    done = taskdesk("render", note, other)
    assert (done.returncode, done.stderr) == (0, b"")
    html = (tmp_path / "rules.md.html").read_text("utf-8")
    assert html == '<meta charset="utf-8">\n' + render_markdown(note.read_text("utf-8")) + "\n"
    assert "<li>\u2611 two</li>" in html
    assert "![[org/o/n.md]]" in html  # embeds are not resolved
    assert "<script" not in html
    assert "<s>old</s>" in (tmp_path / "other.md.html").read_text("utf-8")


def test_a_missing_or_unreadable_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    good = tmp_path / "good.md"
    good.write_text("# fine", "utf-8")
    binary = tmp_path / "bad.md"
    binary.write_bytes(b"\xff\xfe not text")
    done = taskdesk("render", tmp_path / "missing.md", good, binary, tmp_path)
    assert done.returncode == 2
    lines = done.stderr.decode().splitlines()
    assert lines == [
        f"taskdesk: {tmp_path / 'missing.md'}: no such file",
        f"taskdesk: {binary}: not UTF-8 text (byte 0)",
        f"taskdesk: {tmp_path}: is a folder, not a Markdown file",
    ]
    assert (tmp_path / "good.md.html").read_text(
        "utf-8"
    ) == '<meta charset="utf-8">\n<h1>fine</h1>\n'
    assert not (tmp_path / "missing.md.html").exists()
