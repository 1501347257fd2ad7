"""The `taskdesk` command line without the desktop app: ``--version``, ``serve`` and ``expand``.

``taskdesk serve --workspace FILE [--db FILE] [--host H] [--port N] [--spec-only]``
    Runs the reference server (default 127.0.0.1:8765). The first line on standard output
    is exactly ``taskdesk: serving http://HOST:PORT``. The database defaults to a file in
    the user's data folder keyed by the workspace's absolute path, seeded from the workspace
    when new. Stops cleanly on SIGINT or SIGTERM. ``--spec-only`` serves the spec's four
    endpoints and none of the EXTENSIONs, to try the app against a server that lacks them.
``taskdesk expand --workspace FILE --agent ID [--json] [--db FILE]``
    Prints the agent's expanded Task exactly as a run gets it inside ``<task>`` (no newline
    added). By default the live Task and notes come from the workspace file (after its
    seeded saves); with ``--db`` they come from that server database instead, so the output
    matches a run that server would create now. Over budget: the same output, then exit 3
    with ``embed budget exceeded`` on standard error (``--json`` too). ``--json`` prints
    ``{text, broken_embeds, embedded_bytes, over_budget, task_source}``.

Bad input exits 2 with one line on standard error. Exit codes: 0 ok, 2 bad input, 3 over
budget.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import signal
import sys
import threading
from pathlib import Path
from typing import Any, NoReturn

from app import __version__
from app.expander import Expansion, task_display_path, task_source
from app.workspace import Workspace, WorkspaceError, load_workspace

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_OVER_BUDGET = 3


class UsageError(Exception):
    """Bad arguments or input: one line for standard error, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="taskdesk", description="Taskdesk: the editor for an agent's Task.")
    parser.add_argument("--version", action="version", version=f"taskdesk {__version__}")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)

    serve = commands.add_parser("serve", help="run the reference server")
    serve.add_argument("--workspace", required=True, type=Path, help="workspace JSON file")
    serve.add_argument("--db", type=Path, help="SQLite file (default: in the data folder)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8765, help="0 takes a free port")
    serve.add_argument(
        "--spec-only",
        action="store_true",
        help="serve only the spec's endpoints, none of the reference server's extensions",
    )

    expand = commands.add_parser("expand", help="print an agent's expanded Task")
    expand.add_argument("--workspace", required=True, type=Path, help="workspace JSON file")
    expand.add_argument("--agent", required=True, help="agent id")
    expand.add_argument("--json", action="store_true", help="print the expansion as JSON")
    expand.add_argument("--db", type=Path, help="read the live Task from this server database")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code instead of exiting."""
    parser = build_parser()
    try:
        args = parser.parse_args(sys.argv[1:] if argv is None else argv)
        if args.command == "serve":
            return serve(
                args.workspace, args.db, args.host, args.port, extensions=not args.spec_only
            )
        if args.command == "expand":
            return expand(args.workspace, args.agent, as_json=args.json, db_path=args.db)
        parser.print_usage(sys.stderr)
        return EXIT_BAD_INPUT
    except SystemExit as done:  # --help and --version end argparse this way
        return done.code if isinstance(done.code, int) else EXIT_OK
    except (UsageError, WorkspaceError) as exc:
        print(f"taskdesk: {exc}", file=sys.stderr, flush=True)
        return EXIT_BAD_INPUT


# ---------------------------------------------------------------- serve


def default_db_path(workspace: Path) -> Path:
    """A database in the user's data folder, one per workspace file."""
    from platformdirs import user_data_path

    resolved = workspace.expanduser().resolve()
    key = hashlib.sha256(str(resolved).encode()).hexdigest()[:12]
    stem = re.sub(r"[^A-Za-z0-9_-]", "", resolved.stem) or "workspace"
    return user_data_path("taskdesk", appauthor=False) / "servers" / f"{stem}-{key}.sqlite3"


def serve(
    workspace: Path, db: Path | None, host: str, port: int, *, extensions: bool = True
) -> int:
    from app.server import ServerStartError, start_server
    from app.server.database import DatabaseError

    if not 0 <= port <= 65535:
        raise UsageError(f"--port {port} is not a port number (0 to 65535)")
    db_path = db if db is not None else default_db_path(workspace)
    try:
        handle = start_server(workspace, db_path, host=host, port=port, extensions=extensions)
    except DatabaseError as exc:
        raise UsageError(str(exc)) from None
    except (OSError, ServerStartError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise UsageError(f"cannot serve on {host}:{port}: {reason}") from None
    stop = threading.Event()
    previous = _on_stop_signals(stop)
    try:
        print(f"taskdesk: serving {handle.url}", flush=True)
        stop.wait()
    finally:
        handle.stop()
        _restore_signals(previous)
    return EXIT_OK


def _on_stop_signals(stop: threading.Event) -> dict[int, Any]:
    """SIGINT and SIGTERM set ``stop`` (only the main thread may set handlers)."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    previous: dict[int, Any] = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        previous[sig] = signal.signal(sig, lambda _sig, _frame: stop.set())
    return previous


def _restore_signals(previous: dict[int, Any]) -> None:
    for sig, handler in previous.items():
        signal.signal(sig, handler)


# ---------------------------------------------------------------- expand


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
        _write(json.dumps(body, ensure_ascii=False) + "\n")
    else:
        _write(expansion.text)
    if expansion.over_budget:
        print("embed budget exceeded", file=sys.stderr, flush=True)
        return EXIT_OVER_BUDGET
    return EXIT_OK


def _expand_from_db(db_path: Path, agent_id: str) -> tuple[Expansion, int, str, str]:
    """The live Task of a server database, expanded; with its version, text and path."""
    from app.server.database import DatabaseError, ServerDatabase
    from app.server.live_expansion import expand_live_task

    if not db_path.is_file():
        raise UsageError(f"database not found: {db_path}")
    try:
        db = ServerDatabase(db_path)
    except DatabaseError as exc:
        raise UsageError(str(exc)) from None
    try:
        with db.read() as tx:
            if not tx.is_seeded():
                raise UsageError(f"database {db_path} holds no workspace")
            agent = tx.agent(agent_id)
            task = tx.task(agent_id, with_revisions=False)
            if agent is None or task is None:
                raise UsageError(f"no agent {agent_id!r} in the database")
            path = task_display_path(tx.meta("org_id"), agent_id)
            return expand_live_task(tx, agent, task.content), task.version, task.content, path
    finally:
        db.close()


def _write(text: str) -> None:
    """Write UTF-8 whatever the locale says, so the bytes match what a run gets."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a text-only stream (an embedding program's capture)
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    sys.stdout.flush()
    buffer.write(text.encode("utf-8"))
    buffer.flush()
