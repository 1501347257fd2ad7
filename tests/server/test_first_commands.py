"""What a new operator meets on the command line: `taskdesk --help` lists every command, a
refused token names TASKDESK_TOKEN, and the README's commands say `.venv/bin/taskdesk` and
reuse the first command's `.venv`."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import COMMAND_NAMES, all_commands
from app.cli import main as cli_main
from tests.live_server import LiveServer

ROOT = Path(__file__).resolve().parents[2]


def test_help_lists_every_command() -> None:
    shown = subprocess.run(
        [
            sys.executable,
            "-c",
            "from widgets.launcher import main; raise SystemExit(main())",
            "--help",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        check=False,
    )
    assert shown.returncode == 0, shown.stderr
    listed = re.findall(r"^  (\w[\w-]*)  ", shown.stdout, flags=re.MULTILINE)
    assert listed == list(COMMAND_NAMES)


def test_each_command_is_named_as_its_module_says() -> None:
    assert [command.NAME for command in all_commands()] == list(COMMAND_NAMES)


def test_a_command_loads_its_own_module_alone() -> None:
    """`taskdesk serve`, which the app starts for its local workspace, does not wait on the
    other commands' imports (the fleet's rows, the HTTP client)."""
    code = (
        "import sys; from app.cli import main; main(['serve', '--help']); "
        "print(sorted(m for m in sys.modules if m.startswith(('app.cli.', 'app.client.'))))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        check=True,
    )
    assert "--workspace" in shown.stdout  # serve's own help
    loaded = ast.literal_eval(shown.stdout.strip().splitlines()[-1])
    assert loaded == ["app.cli.common", "app.cli.serve"]


@pytest.mark.parametrize("command", ["check", "references"])
def test_a_refused_token_names_taskdesk_token(
    command: str, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    monkeypatch.setenv("TASKDESK_TOKEN", "not-a-token-of-this-server")
    extra = ["--agent", "a_scout"] if command == "references" else []
    code = cli_main([command, "--server", live_server.url, *extra])
    err = capsys.readouterr().err
    assert code == 2
    assert "TASKDESK_TOKEN" in err and "connection settings" not in err
    assert err.count("\n") == 1


def test_the_readme_says_where_the_command_is_and_keeps_the_first_venv() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    test_command = readme.split("# run the tests\n", 1)[1].splitlines()[0]
    assert test_command.startswith("[ -x .venv/bin/python ] || python3 -m venv .venv;")
    command_line = readme.split("## The command line\n", 1)[1]
    assert ".venv/bin/taskdesk" in command_line.split("\n- ", 1)[0]
    assert "### Try this first" in readme.split("## Using it", 1)[0]
