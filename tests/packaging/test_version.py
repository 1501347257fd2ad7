"""One version source: pyproject.toml, read through the package metadata or from a checkout."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import app
from app import UNKNOWN_VERSION, _checkout_version
from widgets.launcher import main

ROOT = Path(__file__).resolve().parents[2]


def pyproject_version() -> str:
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"])


def test_the_version_is_pyprojects() -> None:
    assert app.__version__ == app.version() == pyproject_version()


def test_version_flag_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"taskdesk {pyproject_version()}"


def test_a_checkout_that_was_never_installed_reads_its_pyproject(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "taskdesk"\nversion = "2.3.4"\n', encoding="utf-8")
    assert _checkout_version(pyproject) == "2.3.4"


@pytest.mark.parametrize(
    "text",
    [
        '[project]\nname = "someone-else"\nversion = "9.9"\n',  # not our pyproject
        '[project]\nname = "taskdesk"\n',  # no version
        "not toml at all [",
    ],
)
def test_anything_else_is_an_unknown_version_not_a_crash(tmp_path: Path, text: str) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(text, encoding="utf-8")
    assert _checkout_version(pyproject) == UNKNOWN_VERSION
    assert _checkout_version(tmp_path / "missing.toml") == UNKNOWN_VERSION


def test_the_version_is_read_only_when_asked_for() -> None:
    # The metadata look-up must not slow down every import of the engine (the local server
    # process imports it too).
    code = (
        "import app\n"
        "assert app.version.cache_info().currsize == 0\n"
        "print(app.__version__)\n"
        "assert app.version.cache_info().currsize == 1\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == pyproject_version()
