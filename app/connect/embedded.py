"""The embedded default: the demo workspace in the user's data folder, served on loopback."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Protocol
from urllib.parse import urlsplit

from app.connect.exit_with_parent import PARENT_VARIABLE
from app.connect.local_workspace import (
    DATABASE_FILE,
    FRESH_HINT,
    SERVER_LOG_FILE,
    WORKSPACE_FILE,
    EmbeddedError,
    local_operator,
    local_workspace_paths,
    seed_local_workspace,
    set_aside_local_workspace,
)

__all__ = [  # the local workspace's files are local_workspace's; callers find them here too
    "DATABASE_FILE",
    "SERVER_LOG_FILE",
    "WORKSPACE_FILE",
    "EmbeddedError",
    "EmbeddedLaunch",
    "EmbeddedServer",
    "launch_embedded",
    "local_operator",
    "local_workspace_paths",
    "seed_local_workspace",
    "server_refusal",
    "set_aside_local_workspace",
    "start_embedded",
]

START_TIMEOUT_S = 20.0
STOP_TIMEOUT_S = 3.0
SERVING_PREFIX = "taskdesk: serving "
LOOPBACK = "127.0.0.1"


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


ServerStarter = Callable[[Path, Path], _Stoppable]


def _start_reference_server(workspace: Path, db_path: Path) -> _Stoppable:
    # Imported here: the server pulls in Starlette and uvicorn, which the window must not
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
# The local server runs as `taskdesk serve` in a process of its own: its imports (Starlette,
# uvicorn, asyncio) then load on another core while the window paints, and serving requests
# never competes with the window for Python's interpreter lock.


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


class EmbeddedLaunch:
    """A local server being started; ``wait()`` returns it once it serves."""

    def __init__(self, data_dir: Path, workspace_path: Path | None = None) -> None:
        """``workspace_path``: the workspace file already seeded (``workspace_to_serve``),
        so starting the process reads and writes nothing else."""
        self.workspace_path = workspace_path or seed_local_workspace(data_dir)
        _, self.db_path = local_workspace_paths(data_dir)
        env = dict(os.environ)
        # From a checkout `app` is found beside this file; installed, this changes nothing.
        root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        # The server asks for SIGTERM when its parent dies (exit_with_parent). The kernel
        # ties that to the thread that started it: only the main thread lives as long as the app.
        if threading.current_thread() is threading.main_thread():
            env[PARENT_VARIABLE] = str(os.getpid())
        else:
            env.pop(PARENT_VARIABLE, None)
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
            )
        except OSError as exc:
            raise EmbeddedError(
                f"The local workspace server could not be started: {exc.strerror or exc}. "
                "Use File › Connect to server… to work with another server."
            ) from None
        self._lines: queue.Queue[bytes] = queue.Queue()
        self._operator: tuple[str, str] | EmbeddedError | None = None  # read with the line
        threading.Thread(
            target=self._read_first_line, name="taskdesk-local-server", daemon=True
        ).start()

    def _read_first_line(self) -> None:
        # Whom to sign in as, read from the workspace while the server starts (~1 ms, 16 ms
        # for a workspace of 2 MB): after its first line it would hold the first Task back.
        try:
            self._operator = local_operator(self.workspace_path)
        except EmbeddedError as exc:
            self._operator = exc  # said once the server's own line has been looked at
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
        found = self._operator
        assert found is not None  # read before the line was put
        if isinstance(found, EmbeddedError):
            self.cancel()
            raise found
        token, name = found
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


def launch_embedded(data_dir: Path) -> EmbeddedLaunch:
    """Seed (first start only) and start `taskdesk serve` on the local workspace now."""
    return EmbeddedLaunch(data_dir)
