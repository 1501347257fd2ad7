"""The `taskdesk` command line without the desktop app: ``--version`` and one module a command.

Each command is a module in this package with ``NAME``, ``HELP``, ``add_arguments(parser)``
and ``run(args) -> int``; ``COMMANDS`` lists them, so adding one is a new module and a line.
Bad input exits 2 with one line on standard error (``taskdesk: …``), never a traceback.
"""

from __future__ import annotations

import sys

from app.cli import (
    admin,
    check,
    expand,
    merge,
    proposals,
    propose,
    references,
    render,
    search,
    serve,
    used_by,
)
from app.cli.common import EXIT_BAD_INPUT, EXIT_OK, Command, UsageError, build_parser
from app.core.workspace import WorkspaceError

COMMANDS: tuple[Command, ...] = (
    serve,
    expand,
    references,
    check,
    merge,
    render,
    used_by,
    propose,
    proposals,
    search,
    admin,
)
COMMAND_NAMES: tuple[str, ...] = tuple(command.NAME for command in COMMANDS)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code instead of exiting."""
    parser = build_parser(COMMANDS)
    try:
        args = parser.parse_args(sys.argv[1:] if argv is None else argv)
        for command in COMMANDS:
            if args.command == command.NAME:
                return command.run(args)
        parser.print_usage(sys.stderr)
        return EXIT_BAD_INPUT
    except SystemExit as done:  # --help and --version end argparse this way
        return done.code if isinstance(done.code, int) else EXIT_OK
    except (UsageError, WorkspaceError) as exc:
        print(f"taskdesk: {exc}", file=sys.stderr, flush=True)
        return EXIT_BAD_INPUT
