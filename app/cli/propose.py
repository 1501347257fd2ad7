"""``taskdesk propose``: hand an operator a change of an agent's Task to review.

``taskdesk propose --server URL --agent ID --title T [--note N] [--base N] FILE`` reads FILE
(the whole proposed Task, UTF-8) and opens a proposal against the live version (or ``--base``),
then prints the proposal's id and exits 0. Every refusal exits 2 with the server's reason in
one line (FILE is never changed). The token comes from ``TASKDESK_TOKEN``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from app.cli.common import EXIT_OK, UsageError, write_stdout
from app.cli.merge import read_text
from app.cli.proposal_cli import add_server_argument, client_for
from app.client.errors import TaskdeskError

NAME = "propose"
HELP = "propose a change of an agent's Task for an operator to review (prints its id)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_server_argument(parser)
    parser.add_argument("--agent", required=True, metavar="ID", help="the agent whose Task")
    parser.add_argument("--title", required=True, help="one line saying what the change is")
    parser.add_argument("--note", default="", help="why, for the operator (optional)")
    parser.add_argument(
        "--base", type=int, metavar="N", help="the version it is drafted against (default: live)"
    )
    parser.add_argument("file", type=Path, help="the whole proposed Task text")


def run(args: argparse.Namespace) -> int:
    content = read_text(args.file)
    with client_for(args) as client:
        try:
            base = args.base if args.base is not None else client.get_task(args.agent).version
            proposal = client.propose(args.agent, content, base, args.title, args.note)
        except TaskdeskError as refused:
            raise UsageError(refused.message) from None
    write_stdout(proposal.id + "\n")
    return EXIT_OK
