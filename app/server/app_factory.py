"""Builds the reference server's Starlette app over one database (SQLite or PostgreSQL)."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute

from app import version
from app.core.workspace import Workspace, WorkspaceError, load_workspace, read_workspace_bytes
from app.server import (
    event_routes,
    fleet_routes,
    note_routes,
    note_uses,
    org_routes,
    proposal_routes,
    run_routes,
    task_routes,
    task_saves,
)
from app.server.api_pages import description_routes
from app.server.body_limit import BodyLimit
from app.server.database import DatabaseError
from app.server.db_open import Database, DatabaseTarget, is_postgres, open_server_database
from app.server.disk_full import on_storage_error
from app.server.live_events import EventWake
from app.server.loop_writes import LoopWrites
from app.server.openapi_doc import check_described
from app.server.picker_notes import PickerBodies
from app.server.rate_limit import RateLimiter, RunRate
from app.server.responses import ApiError, on_api_error, on_http_exception, on_unexpected
from app.server.seeding import seed_if_new
from app.server.server_timing import ServerTiming
from app.server.task_answers import TaskAnswers
from app.server.token_gate import TokenGate


def open_database(db_path: DatabaseTarget, workspace: Workspace | Path | None) -> Database:
    """Open (creating) the database and seed it from the workspace if it is new.

    A workspace given as a path is read and checked first: a malformed file is refused with
    a WorkspaceError naming the bad entry, even when the database exists. A restart on a
    database already seeded from the very same file (its SHA-256 is kept) skips parsing it:
    that file was checked when it seeded the database.
    """
    digest: str | None = None
    if isinstance(workspace, Path):
        digest = _file_digest(workspace)
        if digest is not None and _seeded_from(db_path, digest):
            workspace = None
        else:
            workspace = load_workspace(workspace)
    db = open_server_database(db_path)
    try:
        if workspace is not None:
            seed_if_new(db, workspace)
            if digest is not None:
                with db.write() as tx:
                    tx.set_meta(WORKSPACE_DIGEST, digest)
        else:
            with db.read() as tx:
                if not tx.is_seeded():
                    raise DatabaseError(
                        f"database {db.where} is empty and no workspace was given to seed it"
                    )
        build_note_uses(db)
    except (sqlite3.Error, OverflowError) as exc:
        # A file that is SQLite but not ours (other tables), or a value SQLite can't hold.
        db.close()
        raise DatabaseError(f"cannot use database {db.where}: {exc}") from None
    except BaseException:
        db.close()
        raise
    return db


def build_note_uses(db: Database) -> None:
    """A database made before the used-by index existed gets it once, when first opened."""
    with db.read() as tx:
        built = note_uses.is_built(tx)
    if not built:
        with db.write() as tx:
            if not note_uses.is_built(tx):
                note_uses.rebuild(tx)


WORKSPACE_DIGEST = "workspace_sha256"
"""The meta key holding the SHA-256 of the workspace file last checked against the database."""


def _file_digest(path: Path) -> str | None:
    """The file's SHA-256; None when it can't be read (load_workspace then says why)."""
    try:
        return hashlib.sha256(read_workspace_bytes(path)).hexdigest()
    except WorkspaceError:
        return None


def _seeded_from(db_path: DatabaseTarget, digest: str) -> bool:
    """Whether the database exists, is seeded, and was last checked against this file.

    Read-only and best effort: any doubt means False, and the file is parsed as before
    (always on PostgreSQL, where a start is not the app's first paint)."""
    if is_postgres(db_path) or not Path(db_path).is_file():
        return False
    try:
        conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=5.0)
        try:
            row = conn.execute(
                "SELECT value FROM meta WHERE key = ?", (WORKSPACE_DIGEST,)
            ).fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    return row is not None and row[0] == digest


def create_app(
    db_path: DatabaseTarget,
    workspace: Workspace | Path | None = None,
    *,
    extensions: bool = True,
    configure: Callable[[Starlette], None] | None = None,
    run_rate: RunRate | None = None,
) -> Starlette:
    """The app, its database open and seeded; the database closes when the app shuts down.

    ``extensions=False`` serves the spec's four endpoints only, like a server that is not
    this reference one: every EXTENSION of shared/spec/API.md (who am I, agents, guilds,
    notes, runs, task.md's ETag and the live version in a 409) is absent, and its routes
    answer 404 ``not found`` like any unknown route. ``configure`` is called last with the
    app; production never passes it (the tests mount their fault-injection routes with it).
    """
    db = open_database(db_path if is_postgres(db_path) else Path(db_path), workspace)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        yield
        db.close()

    routes: list[BaseRoute] = [*description_routes(TITLE, version)]
    routes += task_routes.router.routes + task_saves.router.routes + org_routes.router.routes
    if extensions:
        routes += task_routes.extension_router.routes + run_routes.extension_router.routes
        # Before org_routes': GET /api/notes/{path} would take …/used-by as a path.
        routes += note_routes.extension_router.routes
        routes += org_routes.extension_router.routes
        routes += proposal_routes.extension_router.routes
        routes += fleet_routes.router.routes
        routes += event_routes.extension_router.routes  # live events and presence
    check_described(routes)  # a route missing from the document stops the start, not a reader
    app = Starlette(
        routes=routes,
        exception_handlers={
            ApiError: on_api_error,
            StarletteHTTPException: on_http_exception,
            sqlite3.Error: on_storage_error,  # a full disk: 507, quietly (disk_full)
            OSError: on_storage_error,
            Exception: on_unexpected,
        },
        lifespan=lifespan,
    )
    # A path with a trailing slash is a path of its own (404 JSON), never a redirect: Starlette
    # would answer 307 to a Location built from the request's Host, before any token check.
    app.router.redirect_slashes = False
    app.state.db = db
    app.state.event_wake = EventWake()  # rings this process's open event streams
    if extensions:
        db.on_change(app.state.event_wake.ring)
    app.state.picker_bodies = PickerBodies()  # the picker's answers per caller (org_routes)
    app.state.task_answers = TaskAnswers()  # task.md's answers per version (task_routes)
    app.state.loop_writes = LoopWrites(db)  # small saves on the loop, gathered (task_saves)
    app.state.extensions = extensions
    app.state.run_limiter = RateLimiter(run_rate or RunRate())
    if configure is not None:
        configure(app)
    # Bodies are bounded before any route or test hook runs; the token is checked from the
    # head before any body is read (token_gate); outermost, the server's time on the request
    # is measured from its arrival (server_timing).
    app.add_middleware(BodyLimit)
    app.add_middleware(TokenGate)
    app.add_middleware(ServerTiming)
    return app


TITLE = "Taskdesk reference server"
"""The OpenAPI document's title; the Swagger UI and ReDoc pages are named after it."""
