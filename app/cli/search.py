"""``taskdesk search``: every line of every Task (or prompt) holding a text or a pattern.

``taskdesk search (--workspace FILE | --server URL) TEXT [--prompt] [--regex] [--guild ID]
[--json]``. Prints ``agent:line:column: text`` per hit (``--json``: the API's ``agents``
list); exits 0 with hits, 1 without, 2 with one line on bad input.
"""

from __future__ import annotations

import argparse
import json

from app.cli.common import EXIT_OK, write_stdout
from app.cli.fleet_source import search_hits
from app.cli.org_source import add_source_arguments, open_source

NAME = "search"
HELP = "find a text or pattern in every Task, or in every prompt as runs get it"
EXIT_NOTHING_FOUND = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_source_arguments(parser)
    parser.add_argument("text", help="what to find (case-insensitive)")
    parser.add_argument(
        "--prompt", action="store_true", help="search each Task as its run gets it, embeds inlined"
    )
    parser.add_argument("--regex", action="store_true", help="TEXT is a Python regular expression")
    parser.add_argument("--guild", help="only this guild's agents")
    parser.add_argument("--json", action="store_true", help="print the API's agents list")


def run(args: argparse.Namespace) -> int:
    source = open_source(args)
    try:
        hits = search_hits(
            source, args.text, in_prompt=args.prompt, regex=args.regex, guild_id=args.guild
        )
    finally:
        source.close()
    if args.json:
        write_stdout(json.dumps({"agents": hits}, ensure_ascii=False, indent=1) + "\n")
    else:
        write_stdout(
            "".join(
                f"{agent['id']}:{m['line']}:{m['column']}: {m['text']}\n"
                for agent in hits
                for m in agent["matches"]
            )
        )
    return EXIT_OK if hits else EXIT_NOTHING_FOUND
