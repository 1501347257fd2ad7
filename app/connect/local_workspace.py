"""The local workspace's files: seeded from the demo with fresh secrets, read, set aside."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.connect.private_files import make_private, private_folder, write_private_file
from app.core.resource_files import demo_workspace_text

WORKSPACE_FILE = "local_workspace.json"
DATABASE_FILE = "local_workspace.sqlite3"
SERVER_LOG_FILE = "local_server.log"


class EmbeddedError(RuntimeError):
    """The local workspace could not be prepared or served; the message says what to do.

    ``damaged``: its workspace file or database can't be read, so starting from a fresh
    local workspace (the damaged files kept aside, ``set_aside_local_workspace``) helps.
    """

    def __init__(self, message: str, *, damaged: bool = False) -> None:
        super().__init__(message)
        self.damaged = damaged


FRESH_HINT = (
    "Start from a fresh local workspace (the damaged files are kept aside), or use "
    "File › Connect to server… to work with another server."
)


def local_workspace_paths(data_dir: Path) -> tuple[Path, Path]:
    """The workspace file and database of the local workspace inside ``data_dir``."""
    return data_dir / WORKSPACE_FILE, data_dir / DATABASE_FILE


def seed_local_workspace(data_dir: Path) -> Path:
    """Copy the demo workspace into ``data_dir`` on first start; later starts keep the copy.

    The copy, not the packaged resource, is what the server seeds from: an installed
    program's resources may sit inside a zip, and the operator's workspace should not
    change when the program is upgraded. The demo's tokens are published with the program,
    so the copy gets fresh random ones (people and agents keep their names and roles), and
    the folder and its files are private to the user (0700, 0600): anyone who could read
    them could sign in to the local server as anyone. A copy made before this still holds
    the published tokens; they are replaced, in the database too.
    """
    workspace_path, db_path = local_workspace_paths(data_dir)
    try:
        private_folder(data_dir)
        if workspace_path.exists():
            for path in (workspace_path, *_database_files(db_path), data_dir / SERVER_LOG_FILE):
                make_private(path)
            _replace_published_tokens(workspace_path, db_path)
            return workspace_path
        text = demo_workspace_text()
        write_private_file(workspace_path, _with_fresh_tokens(json.loads(text), {}))
    except OSError as exc:
        raise EmbeddedError(
            f"Cannot create the local workspace in {data_dir}: {exc.strerror or exc}. "
            "Free some disk space or make the folder writable, then start Taskdesk again."
        ) from None
    return workspace_path


def workspace_to_serve(data_dir: Path, *, local: bool) -> Path | None:
    """The local workspace's file, seeded, when it is the server to open now: no other
    server is remembered (``local``: whatever is). Blocking (disk): off the GUI thread.
    Never raises: None, and the start-up meets the problem again and says what it is."""
    try:
        if not local:
            from app.connect.settings_owner import settings

            if settings().last_server_url:
                return None
        return seed_local_workspace(data_dir)
    except Exception:
        return None


def _database_files(db_path: Path) -> tuple[Path, ...]:
    return (
        db_path,
        db_path.with_name(db_path.name + "-wal"),
        db_path.with_name(db_path.name + "-shm"),
    )


def new_token() -> str:
    """A secret no one can guess: 256 random bits, URL-safe."""
    import secrets  # a first start's only: not on every start's way to the window

    return secrets.token_urlsafe(32)


def _with_fresh_tokens(data: dict[str, Any], replaced: dict[str, str]) -> bytes:
    """The workspace with every token replaced (``replaced`` gets id → new token)."""
    for entry in [*data.get("people", []), *data.get("agents", [])]:
        if isinstance(entry, dict) and entry.get("token"):
            entry["token"] = replaced.setdefault(str(entry["id"]), new_token())
    return json.dumps(data, ensure_ascii=False, indent=2).encode("utf-8")


def _published_tokens() -> set[str]:
    demo = json.loads(demo_workspace_text())
    return {e["token"] for e in [*demo["people"], *demo["agents"]] if e.get("token")}


def _replace_published_tokens(workspace_path: Path, db_path: Path) -> None:
    """A local workspace made by an earlier Taskdesk holds the demo's published tokens:
    give it fresh ones, in the file and in the database the server seeded from it."""
    try:
        data = json.loads(workspace_path.read_text(encoding="utf-8"))
        entries = [*data.get("people", []), *data.get("agents", [])]
        published = _published_tokens()  # once: each reading parses the packaged demo
        if not any(isinstance(e, dict) and e.get("token") in published for e in entries):
            return
    except (ValueError, TypeError, AttributeError, RecursionError):
        return  # a damaged file: local_operator says so in words
    replaced: dict[str, str] = {}
    body = _with_fresh_tokens(data, replaced)
    if db_path.exists():
        from app.server.database import DatabaseError
        from app.server.sqlite_database import ServerDatabase

        try:
            db = ServerDatabase(db_path)
        except DatabaseError:
            return  # the server will report it when it opens the file
        try:
            with db.write() as tx:
                tx.replace_tokens(replaced)
        finally:
            db.close()
    write_private_file(workspace_path, body)  # after the database: a crash leaves it to redo


def local_operator(workspace_path: Path) -> tuple[str, str]:
    """The first operator of the workspace: (token, name). The local person signs in as them."""
    from app.core.workspace import WorkspaceError, load_workspace  # not needed to spawn the server

    try:
        workspace = load_workspace(workspace_path)
    except WorkspaceError as exc:
        detail = str(exc)
        raise EmbeddedError(
            f"The local workspace {workspace_path} cannot be read ({detail}). {FRESH_HINT}",
            damaged=True,
        ) from None
    for person in workspace.people:
        if person.type == "operator":
            return person.token, person.name
    raise EmbeddedError(
        f"The local workspace {workspace_path} has no operator, so nobody could edit a Task. "
        f"Add an operator to its people in that file. {FRESH_HINT}",
        damaged=True,
    )


def set_aside_local_workspace(data_dir: Path) -> Path:
    """Move the local workspace's files into a dated folder beside them, so the next start
    seeds a fresh one and nothing of the old is lost. Returns that folder. Blocking (disk)."""
    from datetime import datetime

    workspace_path, db_path = local_workspace_paths(data_dir)
    stamp = datetime.now().strftime("%Y-%m-%d_%H%M%S")
    aside = data_dir / f"set-aside-{stamp}"
    try:
        private_folder(aside)
        for path in (workspace_path, *_database_files(db_path)):
            if path.exists():
                path.rename(aside / path.name)
    except OSError as exc:
        raise EmbeddedError(
            f"The damaged local workspace could not be moved aside to {aside}: "
            f"{exc.strerror or exc}. Move {workspace_path.name} and {db_path.name} out of "
            f"{data_dir} yourself, then start Taskdesk again."
        ) from None
    return aside
