"""``taskdesk merge``: merge two edited versions of a Task file with the version they came from.

``taskdesk merge [--output FILE] [--marker-size N] BASE THEIRS MINE``
Prints the merged text, byte for byte, and exits 0 when both sides' changes combine without
a conflict; otherwise prints it with git-style markers (``<<<<<<< mine``, ``||||||| base``,
``=======``, ``>>>>>>> theirs``) around each conflict and exits 1. ``--output`` writes the
result to FILE instead of standard output. Bad input exits 2 with one line.

As git's merge driver (docs/MERGE.md) git passes %O (the ancestor), %A (ours, where the
result must be left) and %B (theirs): ``taskdesk merge --output %A %O %B %A``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from app.cli.common import EXIT_OK, UsageError, not_utf8, write_stdout

NAME = "merge"
HELP = "three-way merge of Task files (also a git merge driver)"
EXIT_CONFLICT = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("base", type=Path, help="the version both edits started from")
    parser.add_argument("theirs", type=Path, help="the other person's version")
    parser.add_argument("mine", type=Path, help="my version")
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        help="write the result to this file instead of standard output (git: %%A)",
    )
    parser.add_argument(
        "--marker-size",
        type=int,
        default=7,
        metavar="N",
        help="length of the conflict markers (git: %%L; default 7)",
    )


def run(args: argparse.Namespace) -> int:
    if args.marker_size < 1:
        raise UsageError(f"--marker-size must be 1 or more, not {args.marker_size}")
    # Imported here: the merge's matchers would load on every command, `serve` included.
    from app.core.merge import MarkerLabels, merge_texts

    base, theirs, mine = (read_text(path) for path in (args.base, args.theirs, args.mine))
    result = merge_texts(base, theirs, mine)
    merged = result.text
    text = merged if merged is not None else result.marked(MarkerLabels(size=args.marker_size)).text
    if args.output is None:
        write_stdout(text)
    else:
        write_text(args.output, text)
    return EXIT_OK if result.is_clean else EXIT_CONFLICT


def read_text(path: Path) -> str:
    """A file's exact text: UTF-8, no newline translation; a one-line reason otherwise."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"{path} is a folder, not a file") from None
    except OSError as exc:
        raise UsageError(f"can't read {path}: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(not_utf8(path, exc)) from None


def write_text(path: Path, text: str) -> None:
    try:
        path.write_bytes(text.encode("utf-8"))
    except OSError as exc:
        raise UsageError(f"can't write {path}: {exc.strerror or exc}") from None
