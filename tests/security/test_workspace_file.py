"""A hostile workspace file never crashes `serve` or `expand`: exit 2, one line naming the entry."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.cli import main
from tests.live_server import WORKSPACE_BASIC

REPO = Path(__file__).resolve().parents[2]
BASIC: dict[str, Any] = json.loads(WORKSPACE_BASIC.read_text(encoding="utf-8"))
BASIC_TEXT = json.dumps(BASIC)


def _with(change: str, value: Any) -> str:
    """The basic workspace with one field replaced; ``change`` is like ``agents.0.id``."""
    data = copy.deepcopy(BASIC)
    *parents, last = change.split(".")
    spot: Any = data
    for key in parents:
        spot = spot[int(key)] if isinstance(spot, list) else spot[key]
    spot[int(last) if isinstance(spot, list) else last] = value
    return json.dumps(data)


def _version_of_digits(digits: int) -> str:
    """A note whose version has ``digits`` digits (json.dumps refuses such an int)."""
    return BASIC_TEXT.replace('"text":', f'"version": {"9" * digits}, "text":', 1)


BAD_WORKSPACES = {
    "nested 100,000 deep": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    "a 5,000-digit version": (_version_of_digits(5000), "notes[0]: version"),
    "a version of 2**70": (_with("notes.0.version", 2**70), "notes[0]: version"),
    "an agent id with NUL": (_with("agents.0.id", "a\x00b"), "agents[0]: id"),
    "an agent id a/../b": (_with("agents.0.id", "a/../b"), "agents[0]: id"),
    "a guild id with a slash": (_with("guilds.0.id", "g/x"), "guilds[0]: id"),
    "a person id ..": (_with("people.0.id", ".."), "people[0]: id"),
    "saves at yesterday": (
        _with("agents.0.saves", [{"task": "t", "by": "u_ann", "at": "yesterday"}]),
        "agents[0].saves[0]: at",
    ),
    "saves at without a zone": (
        _with("agents.0.saves", [{"task": "t", "by": "u_ann", "at": "2026-01-05T09:30:00"}]),
        "agents[0].saves[0]: at",
    ),
    "a token with a line break": (_with("people.0.token", "ann\r\nX-Evil: 1"), "people[0]: token"),
}


def taskdesk(*args: str | Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "app", *map(str, args)], capture_output=True, cwd=REPO, timeout=60
    )


@pytest.mark.parametrize("case", sorted(BAD_WORKSPACES))
@pytest.mark.parametrize("command", ["serve", "expand"])
def test_a_bad_workspace_exits_2_with_one_line_naming_the_entry(
    tmp_path: Path, case: str, command: str
) -> None:
    text, named = BAD_WORKSPACES[case]
    workspace = tmp_path / "workspace.json"
    workspace.write_text(text, encoding="utf-8")
    if command == "serve":
        args: tuple[str | Path, ...] = ("--db", tmp_path / "db.sqlite3", "--port", "0")
    else:
        args = ("--agent", BASIC["agents"][0]["id"])
    done = taskdesk(command, "--workspace", workspace, *args)
    stderr = done.stderr.decode()
    assert "Traceback" not in stderr
    assert done.returncode == 2, stderr
    assert stderr.count("\n") == 1 and stderr.startswith("taskdesk: "), stderr
    assert named in stderr
    assert "\x00" not in stderr


def test_check_says_a_good_workspace_is_ready(tmp_path: Path) -> None:
    done = taskdesk("serve", "--workspace", WORKSPACE_BASIC, "--db", tmp_path / "db", "--check")
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().startswith("taskdesk: workspace ")


# ---------------------------------------------------------------- the fuzz test

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False)
    | st.text(max_size=20)
    | st.sampled_from(["", "a/../b", "a\x00b", "..", "yesterday", "org", "u_ann", "guild_alpha"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


def _spots(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in the basic workspace a value sits, as a key path."""
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _spots(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _spots(inner, (*prefix, index))
    return found


SPOTS = _spots(BASIC)[1:]


def _mutated(changes: list[tuple[tuple[Any, ...], Any, bool]]) -> Any:
    data = copy.deepcopy(BASIC)
    for path, value, remove in changes:
        spot: Any = data
        try:
            for key in path[:-1]:
                spot = spot[key]
            if remove:
                del spot[path[-1]]
            else:
                spot[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change took this place away
    return data


workspaces = st.one_of(
    json_values,
    st.lists(st.tuples(st.sampled_from(SPOTS), json_values, st.booleans()), min_size=1, max_size=3)
    .map(_mutated),
)  # fmt: skip


def _run(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(argv)
    return code, err.getvalue()


@settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(workspaces)
def test_no_workspace_makes_serve_or_expand_raise(document: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder) / "workspace.json"
        workspace.write_text(json.dumps(document), encoding="utf-8")
        code, err = _run(
            ["serve", "--workspace", str(workspace), "--db", f"{folder}/db.sqlite3", "--check"]
        )
        assert code in (0, 2), err
        assert code == 0 or (err.count("\n") == 1 and err.startswith("taskdesk: ")), err
        for agent in ("a_scout", "nobody"):
            code, err = _run(["expand", "--workspace", str(workspace), "--agent", agent])
            assert code in (0, 2, 3), err
            assert code != 2 or (err.count("\n") == 1 and err.startswith("taskdesk: ")), err
