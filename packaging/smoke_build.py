"""Smoke-test a built program: its command line, its server, and its window on a fresh home.

    python packaging/smoke_build.py dist/taskdesk-0.1.0-linux-x86_64/taskdesk [--screenshot PNG]

Each step is bounded; the whole run takes well under three minutes. Under X11 (DISPLAY set)
the window is also checked on X11 with a screenshot, and, where mount namespaces are
available (root), again with the machine's own X11 libraries for Qt hidden, so the build has
to bring its own. Prints one line a step; exits 1 at the first step that fails.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "resources" / "demo_workspace.json"
HIDDEN_X11_LIBRARIES = (
    "libxcb-cursor.so.0",
    "libxcb-icccm.so.4",
    "libxcb-image.so.0",
    "libxcb-keysyms.so.1",
    "libxcb-randr.so.0",
    "libxcb-render-util.so.0",
    "libxcb-shape.so.0",
    "libxcb-xkb.so.1",
    "libxkbcommon-x11.so.0",
    "libxkbcommon.so.0",
    "libX11-xcb.so.1",
)
STEP_TIMEOUT_S = 60
WINDOW_TIMEOUT_S = 100


class SmokeError(Exception):
    """A step failed; the message says what was expected and what came."""


def run(
    command: Sequence[str], *, env: dict[str, str] | None = None, timeout: float = STEP_TIMEOUT_S
) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(
            list(command), env=env, capture_output=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        raise SmokeError(f"{' '.join(command)} did not finish within {timeout:.0f} s") from None


def fresh_env(home: Path, **extra: str) -> dict[str, str]:
    """The caller's environment with Taskdesk's folders in ``home`` and no keyring."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TASKDESK_", "QT_"))}
    env.update(TASKDESK_HOME=str(home), PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring")
    env.update(extra)
    return env


def demo() -> dict[str, object]:
    data: dict[str, object] = json.loads(DEMO.read_text(encoding="utf-8"))
    return data


def live_task(agent: dict[str, object]) -> str:
    """The Task a server seeded from the demo workspace holds: the last seeded save's."""
    saves = agent.get("saves") or []
    assert isinstance(saves, list)
    return str(saves[-1]["task"]) if saves else str(agent["task"])


def check_version(program: Path, _tmp: Path) -> str:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    result = run([str(program), "--version"])
    printed = result.stdout.decode().strip()
    if result.returncode != 0 or printed != f"taskdesk {project['version']}":
        raise SmokeError(f"--version printed {printed!r} (exit {result.returncode})")
    return printed


def check_serve(program: Path, tmp: Path) -> str:
    data = demo()
    agents = data["agents"]
    people = data["people"]
    assert isinstance(agents, list) and isinstance(people, list)
    agent = agents[0]
    token = next(p["token"] for p in people if p["type"] == "operator")
    command = [str(program), "serve", "--workspace", str(DEMO), "--db", str(tmp / "serve.db")]
    server = subprocess.Popen(
        [*command, "--port", "0"],
        env=fresh_env(tmp / "serve-home"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        line = _first_line(server, STEP_TIMEOUT_S)
        if not line.startswith("taskdesk: serving http://"):
            raise SmokeError(f"serve's first line was {line!r}")
        url = line.removeprefix("taskdesk: serving ") + f"/api/agents/{agent['id']}/files/task.md"
        request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request, timeout=STEP_TIMEOUT_S) as response:
            body = json.loads(response.read())
        if body.get("path") != "task.md" or body.get("content") != live_task(agent):
            raise SmokeError(f"GET task.md answered {str(body)[:200]}")
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            code = server.wait(timeout=STEP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            server.kill()
            raise SmokeError("serve did not stop on SIGTERM") from None
    if code != 0:
        raise SmokeError(f"serve exited {code} on SIGTERM: {server.stderr.read().decode()}")
    return f"GET task.md of {agent['name']}: version {body['version']}, 200"


def _first_line(process: subprocess.Popen[bytes], timeout: float) -> str:
    import selectors

    assert process.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        if not selector.select(timeout):
            raise SmokeError(f"serve printed nothing within {timeout:.0f} s")
    return process.stdout.readline().decode().strip()


def check_expand(program: Path, tmp: Path) -> str:
    agents = demo()["agents"]
    assert isinstance(agents, list)
    agent = agents[0]
    arguments = ["expand", "--workspace", str(DEMO), "--agent", str(agent["id"])]
    frozen = run([str(program), *arguments], env=fresh_env(tmp / "expand-home"))
    source = run(
        [sys.executable, "-m", "widgets.launcher", *arguments], env=fresh_env(tmp / "src-home")
    )
    if frozen.returncode != 0 or not frozen.stdout:
        raise SmokeError(f"expand exited {frozen.returncode}: {frozen.stderr.decode()[:300]}")
    first_line = live_task(agent).splitlines()[0]
    if first_line.encode() not in frozen.stdout:
        raise SmokeError(f"expand's output lacks the Task's first line {first_line!r}")
    if source.returncode == 0 and source.stdout != frozen.stdout:
        raise SmokeError("expand prints other bytes than the same command run from source")
    return f"{agent['name']}'s Task, {len(frozen.stdout)} bytes, same as from source"


def check_window(
    program: Path, tmp: Path, *, platform: str, screenshot: Path | None, wrap: Sequence[str] = ()
) -> str:
    home = tmp / f"home-{platform}{'-hidden' if wrap else ''}"
    extra = {"QT_QPA_PLATFORM": platform}
    command = [*wrap, str(program), "--smoke", "--smoke-timeout", str(WINDOW_TIMEOUT_S - 10)]
    if screenshot is not None:
        command += ["--screenshot", str(screenshot)]
    result = run(command, env=fresh_env(home, **extra), timeout=WINDOW_TIMEOUT_S)
    said = result.stdout.decode().strip().splitlines()
    if result.returncode != 0 or not said or "smoke check passed" not in said[-1]:
        raise SmokeError(
            f"the window ({platform}) exited {result.returncode}: "
            + (result.stderr.decode().strip().splitlines() or ["(nothing on stderr)"])[-1]
        )
    if not (home / "data" / "local_workspace.sqlite3").is_file():
        raise SmokeError(f"no local workspace was made in the fresh home {home}")
    return said[-1].removeprefix("taskdesk: ")


def hide_x11_libraries() -> list[str] | None:
    """A command prefix that runs a program with the system's X11 libraries for Qt hidden
    (a private mount namespace binds an empty file over each), or None where it can't."""
    if shutil.which("unshare") is None or run(["unshare", "-m", "true"]).returncode != 0:
        return None
    known = run(["/sbin/ldconfig", "-p"]).stdout.decode().splitlines()
    paths = sorted(
        {
            os.path.realpath(line.rsplit("=> ", 1)[1])
            for line in known
            if "=> " in line and line.split()[0] in HIDDEN_X11_LIBRARIES
        }
    )
    empty = Path(tempfile.mkdtemp(prefix="taskdesk-hidden-")) / "empty"
    empty.write_bytes(b"")
    mounts = " && ".join(f"mount --bind {empty} {path}" for path in paths) or "true"
    return ["unshare", "-m", "sh", "-c", f'{mounts} && exec "$@"', "hide-x11"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("program", type=Path)
    parser.add_argument("--screenshot", type=Path, help="where to save the X11 screenshot")
    args = parser.parse_args(argv)
    program = args.program.resolve()
    started = time.monotonic()
    steps: list[tuple[str, Callable[[Path, Path], str]]] = [
        ("--version", check_version),
        ("serve", check_serve),
        ("expand", check_expand),
        (
            "window, offscreen",
            lambda p, t: check_window(p, t, platform="offscreen", screenshot=None),
        ),
    ]
    if os.environ.get("DISPLAY"):
        steps.append(
            (
                "window, X11",
                lambda p, t: check_window(p, t, platform="xcb", screenshot=args.screenshot),
            )
        )
        hide = hide_x11_libraries()
        if hide is not None:
            steps.append(
                (
                    "window, X11 without the system's xcb libraries",
                    lambda p, t: check_window(p, t, platform="xcb", screenshot=None, wrap=hide),
                )
            )
        else:
            print("smoke: no mount namespace here: not checked without the system's xcb libraries")
    with tempfile.TemporaryDirectory(prefix="taskdesk-smoke-") as folder:
        for name, step in steps:
            step_started = time.monotonic()
            try:
                said = step(program, Path(folder))
            except (SmokeError, OSError, ValueError, KeyError) as exc:
                print(f"smoke: {name}: FAILED: {exc}", file=sys.stderr, flush=True)
                return 1
            print(f"smoke: {name}: ok in {time.monotonic() - step_started:.1f} s: {said}")
    print(f"smoke: all {len(steps)} steps passed in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
