"""``taskdesk check``: every agent's Task reaches its embeds and keeps within the budget.

``taskdesk check (--workspace FILE | --server URL) [--json] [--history FILE] [--run ID …]``
``taskdesk check --all …`` prints the fleet's health rows instead (exit 1 as below).
For scripts and CI. Exits 0 when every agent is clean, 1 listing each agent whose run would
meet an unreachable embed (at hop 1 or 2, with its reason) or that is over the 64 KB budget
(with the smallest set of its largest notes whose removal gets it under), 2 with one line on
bad input. ``--json`` prints a list with one object per agent.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from app.cli.common import EXIT_OK, write_stdout
from app.cli.fleet_source import health_rows
from app.cli.org_source import add_source_arguments, open_source, references_for
from app.cli.source_types import AgentInfo
from app.core.budget import BudgetBreakdown, budget_breakdown
from app.core.models import Reader
from app.core.references import References

NAME = "check"
HELP = "check every agent for unreachable embeds and the embed budget (exit 1 if any)"
EXIT_PROBLEMS = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_source_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one object per agent")
    parser.add_argument(
        "--all",
        action="store_true",
        help="the fleet's health rows (as View › Fleet and GET /api/org/health give them)",
    )


def run(args: argparse.Namespace) -> int:
    if args.all:
        return _run_fleet(args)
    source = open_source(args)
    try:
        results = [(agent, references_for(source, agent)[0]) for agent in source.agents()]
        cuts = {
            agent.id: budget_breakdown(
                found.expansion,
                org_id=source.org_id,
                reader=Reader(agent.id, agent.guild_id),
                lookup=source.lookup,
            )
            for agent, found in results
            if found.expansion.over_budget
        }
    finally:
        source.close()
    failing = [(agent, found) for agent, found in results if not _clean(found)]
    if args.json:
        body = [_as_json(agent, found, cuts.get(agent.id)) for agent, found in results]
        write_stdout(json.dumps(body, ensure_ascii=False, indent=1) + "\n")
    else:
        lines = [
            line for agent, found in failing for line in _report(agent, found, cuts.get(agent.id))
        ]
        if failing:
            lines.append(
                f"{len(failing)} of {len(results)} agents have unreachable embeds or are over "
                "budget"
            )
        else:
            lines.append(f"all {len(results)} agents are clean")
        write_stdout("".join(f"{line}\n" for line in lines))
    return EXIT_PROBLEMS if failing else EXIT_OK


def _run_fleet(args: argparse.Namespace) -> int:
    """Every agent's health row; exit 1 when any is over budget or has unreachable embeds."""
    source = open_source(args)
    try:
        rows = health_rows(source)
    finally:
        source.close()
    failing = [r for r in rows if r["over_budget"] or r["broken_embeds"]]
    if args.json:
        write_stdout(json.dumps({"agents": rows}, ensure_ascii=False, indent=1) + "\n")
    else:
        lines = [
            f"{r['id']}\t{r['guild_id']}\t{r['task_bytes']:,} B\t{r['embedded_bytes']:,} B"
            f"{' OVER BUDGET' if r['over_budget'] else ''}\t{r['broken_embeds']} unreachable"
            f"\t{' '.join(r['shape']) or 'in shape'}"
            for r in rows
        ]
        lines.append(f"{len(failing)} of {len(rows)} agents are broken or over budget")
        write_stdout("".join(f"{line}\n" for line in lines))
    return EXIT_PROBLEMS if failing else EXIT_OK


def _clean(found: References) -> bool:
    return not found.expansion.broken and not found.expansion.over_budget


def _report(agent: AgentInfo, found: References, cut: BudgetBreakdown | None) -> list[str]:
    expansion = found.expansion
    problems = []
    if expansion.broken:
        count = len(expansion.broken)
        problems.append(f"{count} unreachable {'embed' if count == 1 else 'embeds'}")
    if expansion.over_budget:
        problems.append(
            f"over budget by {expansion.embedded_bytes - expansion.budget:,} bytes "
            f"({expansion.embedded_bytes:,} of {expansion.budget:,})"
        )
    lines = [f"{agent.id} ({agent.name}): {', '.join(problems)}"]
    for item in found.markers:
        assert item.reason is not None
        lines.append(
            f"  hop {item.hop}  {item.in_path}:{item.position.line}  {item.path}  "
            f"{item.reason.code}: {item.reason.message}"
        )
    if cut is not None and cut.removal:
        sizes = {n.path: n.bytes for n in cut.notes}
        largest = ", ".join(f"{path} ({sizes[path]:,} bytes)" for path in cut.removal)
        lines.append(
            f"  cutting {largest} gets it to {cut.total_after_removal:,} bytes "
            "(the smallest set of the largest notes)"
        )
    return lines


def _as_json(agent: AgentInfo, found: References, cut: BudgetBreakdown | None) -> dict[str, Any]:
    expansion = found.expansion
    return {
        "agent": agent.id,
        "name": agent.name,
        "clean": _clean(found),
        "unreachable": [item.to_json() for item in found.markers],
        "embedded_bytes": expansion.embedded_bytes,
        "budget": expansion.budget,
        "over_budget": expansion.over_budget,
        "cut": list(cut.removal) if cut is not None else [],
    }
