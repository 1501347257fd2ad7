"""Where ``references`` and ``check`` read an org from: a workspace file or a live server.

``--workspace FILE`` reads the workspace's starting state (after its seeded saves).
``--server URL`` reads the live Task and notes through the API with ``TASKDESK_TOKEN``: the
Task (``task.md``), who the token is and the org (``/api/me``), the agents and their guilds
(``/api/org/agents``) and each embedded file with its access list (``/api/notes/…``). Only an
operator's token reads every file of the org; with another, files it may not read look
missing. Earlier runs (for the ``deleted`` reason) come from ``--run ID`` (a server's run)
or ``--history FILE`` (runs or task_sources as JSON).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from app.cli.common import TOKEN_VARIABLE, UsageError
from app.cli.source_types import AgentInfo, OrgSource
from app.core.expander import task_display_path
from app.core.marker_reasons import EarlierFile, history_from_json, history_of
from app.core.models import OrgFile, Reader
from app.core.references import References, find_references
from app.core.workspace import load_workspace


def add_source_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--workspace", type=Path, help="workspace JSON file")
    where.add_argument("--server", help="server URL (the token comes from TASKDESK_TOKEN)")
    parser.add_argument(
        "--history",
        type=Path,
        help="earlier runs as JSON (runs or task_sources), to tell deleted notes apart",
    )
    parser.add_argument(
        "--run",
        action="append",
        default=[],
        metavar="RUN_ID",
        help="an earlier run on the server, to tell deleted notes apart (repeatable)",
    )


def open_source(args: argparse.Namespace) -> OrgSource:
    """The org the arguments name; bad arguments raise UsageError (one line, exit 2)."""
    history = _history_file(args.history) if args.history is not None else ()
    if args.workspace is not None:
        if args.run:
            raise UsageError("--run reads runs from a server: use it with --server")
        return WorkspaceSource(args.workspace, history)
    token = os.environ.get(TOKEN_VARIABLE, "")
    if not token:
        raise UsageError(f"--server needs the server's access token in {TOKEN_VARIABLE}")
    from app.cli.server_source import ServerSource  # requests loads only for --server

    return ServerSource(args.server, token, history, tuple(args.run))


def references_for(source: OrgSource, agent: AgentInfo) -> tuple[References, int]:
    """The agent's references as a run would meet them now, and its Task version."""
    text, version = source.task(agent.id)
    found = find_references(
        text,
        org_id=source.org_id,
        reader=Reader(agent.id, agent.guild_id),
        lookup=source.lookup,
        task_path=task_display_path(source.org_id, agent.id),
        history=source.history(agent.id),
    )
    return found, version


def find_agent(source: OrgSource, agent_id: str) -> AgentInfo:
    for agent in source.agents():
        if agent.id == agent_id:
            return agent
    raise UsageError(f"no agent {agent_id!r} {source.where}")


def _history_file(path: Path) -> tuple[EarlierFile, ...]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"history file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read history file {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"history file {path} is not valid JSON (line {exc.lineno})") from None
    try:
        return history_from_json(data)
    except ValueError as exc:
        raise UsageError(f"history file {path}: {exc}") from None


class WorkspaceSource:
    """A workspace file's starting state, as a server seeded from it serves it."""

    def __init__(self, path: Path, history: tuple[EarlierFile, ...]) -> None:
        self.workspace = load_workspace(path)
        self.org_id = self.workspace.org_id
        self.where = "in the workspace"
        self._history = history

    def agents(self) -> list[AgentInfo]:
        return [AgentInfo(a.id, a.name, a.guild_id) for a in self.workspace.agents]

    def task(self, agent_id: str) -> tuple[str, int]:
        from app.cli.expand import seeded_version

        return self.workspace.agent(agent_id).live_task, seeded_version(self.workspace, agent_id)

    def lookup(self, path: str) -> OrgFile | None:
        return self.workspace.files.get(path)

    def history(self, agent_id: str) -> tuple[EarlierFile, ...]:
        return history_of(self._history, task_display_path(self.org_id, agent_id))

    def close(self) -> None:
        pass
