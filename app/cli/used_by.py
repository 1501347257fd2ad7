"""``taskdesk used-by``: every agent whose run embeds a note, by guild, hop and file.

``taskdesk used-by (--workspace FILE | --server URL) PATH [--json]``
Prints "Used by 3 agents (2 at hop 1, 1 at hop 2; 0 get the marker)", then the agents grouped
by guild, each with its hop, the file holding the embed and whether its run reaches the note.
``--json`` prints the used-by answer's ``agents`` list. A workspace is expanded here, agent by
agent, with the expander runs use; a server is asked (its used-by index, operators only).
"""

from __future__ import annotations

import argparse
import json
import os
from itertools import groupby

from app.cli.common import EXIT_OK, TOKEN_VARIABLE, UsageError, write_stdout
from app.core.expander import expand_embeds, task_display_path
from app.core.models import Reader
from app.core.note_uses import NoteUse, UsedBy, uses_in
from app.core.workspace import load_workspace

NAME = "used-by"
HELP = "list the agents whose runs embed a note, by guild, hop and file"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--workspace", help="workspace JSON file")
    where.add_argument("--server", help="server URL (the token comes from TASKDESK_TOKEN)")
    parser.add_argument("path", metavar="PATH", help="the note's display path")
    parser.add_argument("--json", action="store_true", help="print the agents as JSON")


def run(args: argparse.Namespace) -> int:
    found = _from_server(args.server, args.path) if args.server else _from_workspace(args)
    if args.json:
        write_stdout(json.dumps(found.to_json(), ensure_ascii=False, indent=1) + "\n")
        return EXIT_OK
    write_stdout(found.summary() + "\n")
    for guild, uses in groupby(sorted(found.uses, key=lambda u: (u.guild_id, u.agent_id)),
                               key=lambda u: u.guild_id):  # fmt: skip
        write_stdout(f"{guild}\n" + "".join(describe(u) + "\n" for u in uses))
    return EXIT_OK


def describe(use: NoteUse) -> str:
    reach = "reaches it" if use.reaches else "gets the marker"
    return f"  {use.agent_id} ({use.name})  hop {use.hop}  via {use.via}  {reach}"


def _from_workspace(args: argparse.Namespace) -> UsedBy:
    workspace = load_workspace(args.workspace)
    if args.path not in workspace.files:
        raise UsageError(f"no note {args.path!r} in the workspace")
    uses: list[NoteUse] = []
    for agent in sorted(workspace.agents, key=lambda a: a.id):
        task_path = task_display_path(workspace.org_id, agent.id)
        expansion = expand_embeds(
            agent.live_task,
            org_id=workspace.org_id,
            reader=Reader(agent.id, agent.guild_id),
            lookup=workspace.files,
            task_path=task_path,
        )
        uses += uses_in(agent.id, agent.name, agent.guild_id, expansion, task_path, args.path)
    return UsedBy(args.path, tuple(uses))


def _from_server(url: str, path: str) -> UsedBy:
    token = os.environ.get(TOKEN_VARIABLE, "")
    if not token:
        raise UsageError(f"--server needs the server's access token in {TOKEN_VARIABLE}")
    from app.client import NotFound, TaskdeskClient, TaskdeskError  # requests: --server only

    with TaskdeskClient(url, token) as client:
        try:
            return client.used_by(path)
        except NotFound:
            raise UsageError(
                f"{url} has no note {path!r} this token may see used-by for (used-by needs "
                "an operator's token on the reference server)"
            ) from None
        except TaskdeskError as exc:
            raise UsageError(f"{url}: {exc.message}") from None
