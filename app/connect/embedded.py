"""The embedded default: the demo workspace in the user's data folder, served on loopback."""

from __future__ import annotations

import json
import os
import queue
import secrets
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol
from urllib.parse import urlsplit

from app.connect.credentials import make_private, private_folder, write_private_file
from app.core.resource_files import demo_workspace_text

WORKSPACE_FILE = "local_workspace.json"
DATABASE_FILE = "local_workspace.sqlite3"
SERVER_LOG_FILE = "local_server.log"
START_TIMEOUT_S = 20.0
STOP_TIMEOUT_S = 3.0
SERVING_PREFIX = "taskdesk: serving "
LOOPBACK = "127.0.0.1"


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


class _Stoppable(Protocol):
    url: str

    def stop(self) -> None: ...


@dataclass(frozen=True, slots=True)
class EmbeddedServer:
    """A running local server: where it is, whom to sign in as, and how to stop it."""

    url: str
    token: str
    operator_name: str
    db_path: Path
    handle: _Stoppable

    def stop(self) -> None:
        self.handle.stop()


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


def _database_files(db_path: Path) -> tuple[Path, ...]:
    return (
        db_path,
        db_path.with_name(db_path.name + "-wal"),
        db_path.with_name(db_path.name + "-shm"),
    )


def new_token() -> str:
    """A secret no one can guess: 256 random bits, URL-safe."""
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
        if not any(isinstance(e, dict) and e.get("token") in _published_tokens() for e in entries):
            return
    except (ValueError, TypeError, AttributeError, RecursionError):
        return  # a damaged file: local_operator says so in words
    replaced: dict[str, str] = {}
    body = _with_fresh_tokens(data, replaced)
    if db_path.exists():
        from app.server.database import DatabaseError, ServerDatabase

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


ServerStarter = Callable[[Path, Path], _Stoppable]


def _start_reference_server(workspace: Path, db_path: Path) -> _Stoppable:
    # Imported here: the server pulls in FastAPI and uvicorn, which the window must not
    # wait for before its first paint.
    from app.server import start_server

    handle: _Stoppable = start_server(workspace, db_path, host=LOOPBACK, port=0)
    return handle


def start_embedded(data_dir: Path, *, starter: ServerStarter | None = None) -> EmbeddedServer:
    """Seed (first start only) and serve the local workspace on a free loopback port, in
    this process (``launch_embedded`` runs it in a process of its own).

    Blocking (disk and a server start): call it off the GUI thread.
    """
    workspace_path = seed_local_workspace(data_dir)
    token, name = local_operator(workspace_path)
    _, db_path = local_workspace_paths(data_dir)
    try:
        handle = (starter or _start_reference_server)(workspace_path, db_path)
    except EmbeddedError:
        raise
    except Exception as exc:  # the server's own errors vary; the operator needs one message
        from app.core.workspace import WorkspaceError
        from app.server.database import DatabaseError

        if isinstance(exc, DatabaseError | WorkspaceError):
            raise EmbeddedError(
                f"The local workspace could not be opened: {exc}. {FRESH_HINT}", damaged=True
            ) from exc
        raise EmbeddedError(
            f"The local workspace could not be started: {exc}. "
            "Use File › Connect to server… to work with another server."
        ) from exc
    return EmbeddedServer(handle.url, token, name, db_path, handle)


# ---------------------------------------------------------------- a server process of its own
#
# The local server runs as `taskdesk serve` in a process of its own: its imports (FastAPI,
# pydantic) then load on another core while the window paints, and serving requests never
# competes with the window for Python's interpreter lock.


class ServerProcess:
    """A running `taskdesk serve` child; ``stop()`` ends it (SIGTERM, then kill)."""

    def __init__(self, process: subprocess.Popen[bytes], url: str, log: IO[bytes]) -> None:
        self.process = process
        self.url = url
        self._log = log

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()
        self._log.close()


def _serve_command(workspace: Path, db_path: Path) -> list[str]:
    args = ["serve", "--workspace", str(workspace), "--db", str(db_path)]
    args += ["--host", LOOPBACK, "--port", "0"]  # loopback only: never reachable from outside
    if getattr(sys, "frozen", False):  # the packaged program is itself `taskdesk`
        return [sys.executable, *args]
    return [sys.executable, "-m", "app", *args]


def _die_with_parent() -> None:
    """Linux: the server gets SIGTERM when the app dies, even on a crash or kill -9."""
    import ctypes
    import signal

    pr_set_pdeathsig = 1
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(pr_set_pdeathsig, signal.SIGTERM)


class EmbeddedLaunch:
    """A local server being started; ``wait()`` returns it once it serves."""

    def __init__(self, data_dir: Path) -> None:
        self.workspace_path = seed_local_workspace(data_dir)
        _, self.db_path = local_workspace_paths(data_dir)
        env = dict(os.environ)
        # From a checkout `app` is found beside this file; installed, this changes nothing.
        root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        on_linux_main_thread = (
            sys.platform.startswith("linux")
            and threading.current_thread() is threading.main_thread()
        )
        self.log_path = data_dir / SERVER_LOG_FILE
        try:
            log_fd = os.open(self.log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            self._log_start = os.lseek(log_fd, 0, os.SEEK_END)  # this start's lines follow
            self._log = os.fdopen(log_fd, "ab")  # lives with the process
            self.process = subprocess.Popen(
                _serve_command(self.workspace_path, self.db_path),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=self._log,
                env=env,
                # preexec_fn is only safe before other threads exist: the launcher's case.
                preexec_fn=_die_with_parent if on_linux_main_thread else None,
            )
        except OSError as exc:
            raise EmbeddedError(
                f"The local workspace server could not be started: {exc.strerror or exc}. "
                "Use File › Connect to server… to work with another server."
            ) from None
        self._lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(
            target=self._read_first_line, name="taskdesk-local-server", daemon=True
        ).start()

    def _read_first_line(self) -> None:
        assert self.process.stdout is not None
        self._lines.put(self.process.stdout.readline())

    def wait(self, timeout: float = START_TIMEOUT_S) -> EmbeddedServer:
        """Blocks until the server serves (off the GUI thread); EmbeddedError when it can't."""
        try:
            line = self._lines.get(timeout=timeout).decode("utf-8", "replace").strip()
        except queue.Empty:
            line = ""
        if not line.startswith(SERVING_PREFIX):
            self.cancel()
            raise self._start_failure()
        url = line[len(SERVING_PREFIX) :]
        if urlsplit(url).hostname != LOOPBACK:
            self.cancel()
            raise EmbeddedError(
                f"The local workspace server listened on {url}, not on loopback only, so it "
                "was stopped. Use File › Connect to server… to work with another server."
            )
        try:
            token, name = local_operator(self.workspace_path)  # parsed while the server starts
        except EmbeddedError:
            self.cancel()
            raise
        return EmbeddedServer(
            url,
            token,
            name,
            self.db_path,
            ServerProcess(self.process, url, self._log),
        )

    def cancel(self) -> None:
        ServerProcess(self.process, "", self._log).stop()

    def _start_failure(self) -> EmbeddedError:
        """Why the server didn't start, in its own words (its one line in the log), and
        whether a fresh local workspace would help."""
        reason = server_refusal(self.log_path, self._log_start)
        if reason is None:
            return EmbeddedError(
                f"The local workspace server did not start; its log is {self.log_path}. "
                "Use File › Connect to server… to work with another server."
            )
        return EmbeddedError(
            f"The local workspace could not be opened: {reason}. {FRESH_HINT}", damaged=True
        )


def server_refusal(log_path: Path, start: int) -> str | None:
    """The line `taskdesk serve` wrote when it refused to start (after ``start`` in its
    log): the workspace file or database it could not read. None for any other failure."""
    try:
        with log_path.open("rb") as log:
            log.seek(start)
            lines = log.read(64 * 1024).decode("utf-8", "replace").splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        if line.startswith("taskdesk: ") and ("database" in line or "workspace" in line):
            return line.removeprefix("taskdesk: ").rstrip(".")
    return None


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


def launch_embedded(data_dir: Path) -> EmbeddedLaunch:
    """Seed (first start only) and start `taskdesk serve` on the local workspace now."""
    return EmbeddedLaunch(data_dir)


def launch_if_local(data_dir: Path) -> EmbeddedLaunch | None:
    """At start-up, before the window exists: start the local server early when no other
    server is going to be opened. Never raises: the window reports problems later."""
    try:
        from app.connect.paths import settings_path
        from app.connect.settings import load_settings

        if load_settings(settings_path()).settings.last_server_url:
            return None
        return launch_embedded(data_dir)
    except Exception:  # the window's own start-up will meet the problem and say what it is
        return None
