"""``taskdesk references``: every embed and named file an agent's run meets, and why.

``taskdesk references (--workspace FILE | --server URL) --agent ID [--json]
[--history FILE] [--run RUN_ID …]``
Prints the References tree: each embed and named file of the Task and of the notes the run
inlines, by hop, with its line, what the run does with it, and for each marker the reason
(docs/REFERENCES.md). ``--json`` prints a list of objects instead, depth first. Exits 0
when the references could be worked out, over budget or not; bad input exits 2 with one line.
"""

from __future__ import annotations

import argparse
import json

from app.cli.common import EXIT_OK, write_stdout
from app.cli.org_source import add_source_arguments, find_agent, open_source, references_for
from app.core.reference_words import summary_of, what_the_run_gets
from app.core.references import Reference

NAME = "references"
HELP = "list an agent's embeds and named files, by hop, with why each marker is one"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_source_arguments(parser)
    parser.add_argument("--agent", required=True, help="agent id")
    parser.add_argument("--json", action="store_true", help="print the references as JSON")


def run(args: argparse.Namespace) -> int:
    source = open_source(args)
    try:
        agent = find_agent(source, args.agent)
        found, version = references_for(source, agent)
    finally:
        source.close()
    if args.json:
        write_stdout(json.dumps(found.to_json(), ensure_ascii=False, indent=1) + "\n")
    else:
        write_stdout(f"{agent.name} ({agent.id}), Task v{version}: {summary_of(found)}\n")
        write_stdout("".join(f"{describe(item)}\n" for item in found.walk()))
    return EXIT_OK


def describe(item: Reference) -> str:
    """One line per reference, indented by hop: where, what the run does, and why (in the
    References panel's words, ``reference_words``; a marker's reason code first)."""
    where = f"{item.position.line}:{item.position.column}"
    head = f"{'  ' * (item.hop - 1)}hop {item.hop}  {where:<8} {item.outcome:<10} {item.path}"
    code = f"{item.reason.code}: " if item.outcome == "marker" and item.reason is not None else ""
    return f"{head}  {code}{what_the_run_gets(item)}"
