"""``taskdesk expand``: print an agent's expanded Task exactly as a run gets it.

``taskdesk expand --workspace FILE --agent ID [--json] [--db FILE]``
Prints the agent's expanded Task exactly as a run gets it inside ``<task>`` (no newline
added). By default the live Task and notes come from the workspace file (after its seeded
saves); with ``--db`` they come from that server database instead, so the output matches a
run that server would create now. Over budget: the same output, then exit 3 with ``embed
budget exceeded`` on standard error (``--json`` too). ``--json`` prints ``{text,
broken_embeds, embedded_bytes, over_budget, task_source}``.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.common import EXIT_OK, EXIT_OVER_BUDGET, UsageError, write_stdout
from app.core.expander import Expansion, task_display_path, task_source
from app.core.workspace import Workspace, load_workspace

if TYPE_CHECKING:
    from app.server.sqlite_database import ServerDatabase

NAME = "expand"
HELP = "print an agent's expanded Task"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workspace", required=True, type=Path, help="workspace JSON file")
    parser.add_argument("--agent", required=True, help="agent id")
    parser.add_argument("--json", action="store_true", help="print the expansion as JSON")
    parser.add_argument("--db", type=Path, help="read the live Task from this server database")


def run(args: argparse.Namespace) -> int:
    return expand(args.workspace, args.agent, as_json=args.json, db_path=args.db)


def seeded_version(workspace: Workspace, agent_id: str) -> int:
    """The live version a server seeded from this workspace gives the agent's Task."""
    agent = workspace.agent(agent_id)
    version, text = 1, agent.task
    for save in agent.saves:
        if save.task != text:  # a save of the same text adds no version
            version, text = version + 1, save.task
    return version


def expand(workspace_path: Path, agent_id: str, *, as_json: bool, db_path: Path | None) -> int:
    workspace = load_workspace(workspace_path)
    if db_path is None:
        expansion = workspace.expand_for(agent_id)
        version = seeded_version(workspace, agent_id)
        task_text = workspace.agent(agent_id).live_task
        display_path = task_display_path(workspace.org_id, agent_id)
    else:
        expansion, version, task_text, display_path = _expand_from_db(db_path, agent_id)
    if as_json:
        body = {
            "text": expansion.text,
            "broken_embeds": [b.to_json() for b in expansion.broken],
            "embedded_bytes": expansion.embedded_bytes,
            "over_budget": expansion.over_budget,
            "task_source": task_source(
                expansion, version=version, task_text=task_text, display_path=display_path
            ),
        }
        write_stdout(json.dumps(body, ensure_ascii=False) + "\n")
    else:
        write_stdout(expansion.text)
    if expansion.over_budget:
        print("embed budget exceeded", file=sys.stderr, flush=True)
        return EXIT_OVER_BUDGET
    return EXIT_OK


def _expand_from_db(db_path: Path, agent_id: str) -> tuple[Expansion, int, str, str]:
    """The live Task of a server database, expanded; with its version, text and path."""
    from app.server.database import DatabaseError
    from app.server.sqlite_database import ServerDatabase

    if not db_path.is_file():
        raise UsageError(f"database not found: {db_path}")
    try:
        db = ServerDatabase(db_path)
    except DatabaseError as exc:
        raise UsageError(str(exc)) from None
    try:
        return _live_expansion(db, db_path, agent_id)
    except (sqlite3.Error, DatabaseError) as exc:  # SQLite, but not a Taskdesk database
        raise UsageError(f"cannot read database {db_path}: {exc}") from None
    finally:
        db.close()


def _live_expansion(
    db: ServerDatabase, db_path: Path, agent_id: str
) -> tuple[Expansion, int, str, str]:
    from app.server.live_expansion import expand_live_task

    with db.read() as tx:
        if not tx.is_seeded():
            raise UsageError(f"database {db_path} holds no workspace")
        agent = tx.agent(agent_id)
        task = tx.task(agent_id, with_revisions=False)
        if agent is None or task is None:
            raise UsageError(f"no agent {agent_id!r} in the database")
        path = task_display_path(tx.meta("org_id"), agent_id)
        return expand_live_task(tx, agent, task.content), task.version, task.content, path
