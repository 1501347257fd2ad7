"""The `taskdesk` command line without the desktop app: ``--version`` and one module a command.

Each command is a module in this package with ``NAME``, ``HELP``, ``add_arguments(parser)``
and ``run(args) -> int``; ``COMMAND_NAMES`` lists them, so adding one is a new module and a
line. A command's own module is the only one loaded to run it: ``taskdesk serve``, which the
app starts for its local workspace, does not wait on the fleet's or the client's imports
(~190 ms); ``taskdesk --help`` and a mistyped command load them all, to list them.
Bad input exits 2 with one line on standard error (``taskdesk: …``), never a traceback.
"""

from __future__ import annotations

import importlib
import sys
from typing import cast

from app.cli.common import EXIT_BAD_INPUT, EXIT_OK, Command, UsageError, build_parser
from app.core.workspace import WorkspaceError

COMMAND_NAMES: tuple[str, ...] = (
    "serve",
    "expand",
    "references",
    "check",
    "merge",
    "render",
    "used-by",
    "propose",
    "proposals",
    "search",
    "admin",
)
"""Every command, in the order ``--help`` lists them; ``used-by`` lives in ``used_by.py``."""


def command(name: str) -> Command:
    """The module of the command ``name`` (one of ``COMMAND_NAMES``), loaded now."""
    return cast(Command, importlib.import_module(f"app.cli.{name.replace('-', '_')}"))


def all_commands() -> tuple[Command, ...]:
    """Every command, in ``--help``'s order."""
    return tuple(command(name) for name in COMMAND_NAMES)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code instead of exiting."""
    args = sys.argv[1:] if argv is None else argv
    # The named command alone; its siblings only where they are listed (help, a wrong name).
    named = args[0] if args and args[0] in COMMAND_NAMES else None
    commands = (command(named),) if named is not None else all_commands()
    parser = build_parser(commands, COMMAND_NAMES)
    try:
        parsed = parser.parse_args(args)
        for each in commands:
            if parsed.command == each.NAME:
                return each.run(parsed)
        parser.print_usage(sys.stderr)
        return EXIT_BAD_INPUT
    except SystemExit as done:  # --help and --version end argparse this way
        return done.code if isinstance(done.code, int) else EXIT_OK
    except (UsageError, WorkspaceError) as exc:
        print(f"taskdesk: {exc}", file=sys.stderr, flush=True)
        return EXIT_BAD_INPUT
