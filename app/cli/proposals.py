"""``taskdesk proposals``: list proposals and their outcomes.

``taskdesk proposals --server URL [--agent ID] [--status S] [--json]``: one agent's proposals
(newest first, every status), or without ``--agent`` the org's (oldest first; operators
only; ``--status`` narrows them, ``open`` by default, ``all`` for every one). One line each:
id, status, agent, base and live version, author, title, outcome; ``--json`` prints
``{proposals: [...]}`` as the server gave them. The token comes from ``TASKDESK_TOKEN``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json

from app.cli.common import EXIT_OK, UsageError, write_stdout
from app.cli.proposal_cli import add_server_argument, client_for
from app.client.errors import TaskdeskError
from app.client.proposals import STATUSES, Proposal

NAME = "proposals"
HELP = "list proposals of an agent or of the org, with their status"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_server_argument(parser)
    parser.add_argument("--agent", metavar="ID", help="only this agent's (every status)")
    parser.add_argument(
        "--status",
        choices=[*STATUSES, "all"],
        default="open",
        help="the org's proposals of this status (default open)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of lines")


def run(args: argparse.Namespace) -> int:
    with client_for(args) as client:
        try:
            if args.agent:
                found = client.agent_proposals(args.agent)
            else:
                found = client.org_proposals(None if args.status == "all" else args.status)
        except TaskdeskError as refused:
            raise UsageError(refused.message) from None
    if args.json:
        rows = [_json_row(p) for p in found]
        write_stdout(json.dumps({"proposals": rows}, ensure_ascii=False, indent=2) + "\n")
    else:
        write_stdout("".join(line(p) + "\n" for p in found))
    return EXIT_OK


def line(proposal: Proposal) -> str:
    """One proposal in one tab-separated line."""
    moved = (
        f"v{proposal.base_version}→v{proposal.live_version}"
        if proposal.base_moved
        else (f"v{proposal.base_version}")
    )
    title = " ".join(proposal.title.split())
    return "\t".join(
        [proposal.id, proposal.status, proposal.agent_id, moved, proposal.author_name, title,
         proposal.outcome]
    )  # fmt: skip


def _json_row(proposal: Proposal) -> dict[str, object]:
    row = dataclasses.asdict(proposal)
    row.pop("content")
    return row
