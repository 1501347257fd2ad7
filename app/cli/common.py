"""What every command shares: exit codes, the one-line usage error, the parser, UTF-8 output."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, Protocol

from app import version

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_OVER_BUDGET = 3

TOKEN_VARIABLE = "TASKDESK_TOKEN"
"""Where every command that reads a live server (``--server URL``) takes its access token."""


class UsageError(Exception):
    """Bad arguments or input: one line for standard error, exit 2."""


class Command(Protocol):
    """A command module: its name, one line of help, its arguments and what it does."""

    NAME: str
    HELP: str

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


class _ShowVersion(argparse.Action):
    """``--version``, as argparse's own prints it, but the version is looked up only when
    asked: reading the package metadata costs every other command (``serve`` too) 30 ms."""

    def __init__(self, option_strings: Sequence[str], dest: str, **_: Any) -> None:
        super().__init__(
            option_strings,
            dest=argparse.SUPPRESS,
            default=argparse.SUPPRESS,
            nargs=0,
            help="show program's version number and exit",
        )

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        print(f"taskdesk {version()}")
        parser.exit()


def build_parser(commands: Sequence[Command], names: Sequence[str]) -> argparse.ArgumentParser:
    """The parser of ``commands``; its usage names every command of ``names``, whichever of
    them are loaded, so a message reads the same however the command line was started."""
    parser = _Parser(prog="taskdesk", description="Taskdesk: the editor for an agent's Task.")
    parser.add_argument("--version", action=_ShowVersion)
    sub = parser.add_subparsers(
        dest="command", parser_class=_Parser, metavar="{" + ",".join(names) + "}"
    )
    for command in commands:
        command.add_arguments(sub.add_parser(command.NAME, help=command.HELP))
    return parser


def not_utf8(path: object, exc: UnicodeDecodeError) -> str:
    """The one wording of a file that is not UTF-8, for every command that reads one."""
    return f"{path}: not UTF-8 text (byte {exc.start})"


def write_stdout(text: str) -> None:
    """Write UTF-8 whatever the locale says, so the bytes match what a run gets."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a text-only stream (an embedding program's capture)
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    sys.stdout.flush()
    buffer.write(text.encode("utf-8"))
    buffer.flush()
