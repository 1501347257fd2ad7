"""The embedded default: the demo workspace in the user's data folder, served on loopback."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Protocol

from app.core.resource_files import demo_workspace_text

WORKSPACE_FILE = "local_workspace.json"
DATABASE_FILE = "local_workspace.sqlite3"
SERVER_LOG_FILE = "local_server.log"
START_TIMEOUT_S = 20.0
STOP_TIMEOUT_S = 3.0
SERVING_PREFIX = "taskdesk: serving "


class EmbeddedError(RuntimeError):
    """The local workspace could not be prepared or served; the message says what to do."""


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
    change when the program is upgraded.
    """
    workspace_path, _ = local_workspace_paths(data_dir)
    if workspace_path.exists():
        return workspace_path
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        tmp = workspace_path.with_suffix(".tmp")
        tmp.write_text(demo_workspace_text(), encoding="utf-8")
        tmp.replace(workspace_path)  # a crash mid-write never leaves half a workspace
    except OSError as exc:
        raise EmbeddedError(
            f"Cannot create the local workspace in {data_dir}: {exc.strerror or exc}. "
            "Free some disk space or make the folder writable, then start Taskdesk again."
        ) from None
    return workspace_path


def local_operator(workspace_path: Path) -> tuple[str, str]:
    """The first operator of the workspace: (token, name). The local person signs in as them."""
    from app.core.workspace import WorkspaceError, parse_workspace  # not needed to spawn the server

    try:
        data = json.loads(workspace_path.read_text(encoding="utf-8"))
        workspace = parse_workspace(data)
    except (OSError, ValueError) as exc:
        detail = str(exc) if isinstance(exc, WorkspaceError) else f"{type(exc).__name__}: {exc}"
        raise EmbeddedError(
            f"The local workspace {workspace_path} cannot be read ({detail}). "
            "Move it aside and start Taskdesk again to get a fresh one."
        ) from None
    for person in workspace.people:
        if person.type == "operator":
            return person.token, person.name
    raise EmbeddedError(
        f"The local workspace {workspace_path} has no operator, so nobody could edit a Task. "
        "Add an operator to its people, or move it aside to get a fresh one."
    )


ServerStarter = Callable[[Path, Path], _Stoppable]


def _start_reference_server(workspace: Path, db_path: Path) -> _Stoppable:
    # Imported here: the server pulls in FastAPI and uvicorn, which the window must not
    # wait for before its first paint.
    from app.server import start_server

    handle: _Stoppable = start_server(workspace, db_path, port=0)
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
    args = ["serve", "--workspace", str(workspace), "--db", str(db_path), "--port", "0"]
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
        try:
            self._log = open(data_dir / SERVER_LOG_FILE, "ab")  # noqa: SIM115 (lives with the process)
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
            raise EmbeddedError(
                "The local workspace server did not start"
                f"{'' if not line else f' ({line})'}; its log is {self._log.name}. "
                "Use File › Connect to server… to work with another server."
            )
        url = line[len(SERVING_PREFIX) :]
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
