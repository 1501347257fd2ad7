"""``taskdesk render FILE…``: each Markdown file's preview HTML, written beside it.

Writes ``FILE.html`` next to each ``FILE``: the sanitised HTML body the preview shows for that
text (embeds are not resolved: ``![[…]]`` stays as written). Exits 0, or 2 with one line for
each file that is missing, unreadable or not UTF-8 (the others are still written).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from app.cli.common import EXIT_BAD_INPUT, EXIT_OK, not_utf8

NAME = "render"
HELP = "write FILE.html beside each Markdown FILE: the HTML the preview shows for it"


CHARSET_LINE = '<meta charset="utf-8">\n'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE", help="a Markdown file")


def _render_one(source: Path) -> str | None:
    """Writes ``source``'s HTML beside it; the problem in one line, or None when written."""
    try:
        text = source.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return f"{source}: no such file"
    except IsADirectoryError:
        return f"{source}: is a folder, not a Markdown file"
    except UnicodeDecodeError as exc:
        return not_utf8(source, exc)
    except OSError as exc:
        return f"{source}: cannot read it ({exc.strerror or exc})"
    target = source.with_name(source.name + ".html")
    # Imported here: markdown-it would load on every command, `serve` (a restart) included.
    from app.render import render_markdown

    html = render_markdown(text)
    try:
        # The charset first: a browser opening the file must not guess (it is UTF-8).
        target.write_bytes(f"{CHARSET_LINE}{html}\n".encode())
    except OSError as exc:
        return f"{target}: cannot write it ({exc.strerror or exc})"
    return None


def run(args: argparse.Namespace) -> int:
    problems = [problem for source in args.files if (problem := _render_one(source))]
    for problem in problems:
        print(f"taskdesk: {problem}", file=sys.stderr, flush=True)
    return EXIT_BAD_INPUT if problems else EXIT_OK
