"""Taskdesk: the desktop editor for an agent's Task (the engine lives in this package)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

DISTRIBUTION = "taskdesk"
UNKNOWN_VERSION = "0+unknown"


@cache
def version() -> str:
    """The version pyproject.toml gives: from the installed package's metadata, or, when
    Taskdesk runs from a checkout that was never installed, from that pyproject.toml."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        return installed_version(DISTRIBUTION)
    except PackageNotFoundError:
        return _checkout_version(Path(__file__).resolve().parent.parent / "pyproject.toml")


def _checkout_version(pyproject: Path) -> str:
    import tomllib

    try:
        project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
    except (OSError, ValueError):
        return UNKNOWN_VERSION
    if project.get("name") != DISTRIBUTION or not isinstance(project.get("version"), str):
        return UNKNOWN_VERSION
    return str(project["version"])


def __getattr__(name: str) -> str:
    # `app.__version__` is read lazily: the metadata look-up costs a few milliseconds that
    # the window's start and the local server's start need not pay.
    if name == "__version__":
        return version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
