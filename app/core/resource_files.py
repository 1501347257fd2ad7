"""The one place that finds Taskdesk's data files in the `resources` package."""

from __future__ import annotations

from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable


def resource(name: str) -> Traversable:
    """A file in `resources/`, whether installed or run from a checkout."""
    return resources.files("resources").joinpath(name)


def read_text(name: str) -> str:
    return resource(name).read_text(encoding="utf-8")


@cache
def default_task_template() -> str:
    """The Task a new agent starts from when it has neither task nor focus."""
    return read_text("task_template.md")


def demo_workspace_text() -> str:
    """The demo workspace the embedded default is seeded from on first start."""
    return read_text("demo_workspace.json")
