"""What the server says about a run: its system prompt and the Task it was made from."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RunNote:
    """A note the run inlined, as `task_source.notes` records it."""

    display_path: str
    version: int
    content_hash: str
    kind: str


@dataclass(frozen=True, slots=True)
class TaskSource:
    """The run's record of its Task (API.md, POST runs)."""

    version: int
    hash: str
    display_path: str
    has_embeds: bool
    embeds: tuple[str, ...]
    notes: tuple[RunNote, ...]
    collections: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RunInfo:
    """A run with its prompt. The reference server adds ``agent_id`` and ``created_at``;
    empty when a server leaves them out."""

    id: str
    system_prompt: str
    task_source: TaskSource
    agent_id: str = ""
    created_at: str = ""

    @property
    def task_text(self) -> str:
        """The expanded Task as the run got it: the text inside `<task>` … `</task>`."""
        start = self.system_prompt.find("<task>\n")
        end = self.system_prompt.rfind("\n</task>")
        if start < 0 or end < start:
            return ""
        return self.system_prompt[start + len("<task>\n") : end]


@dataclass(frozen=True, slots=True)
class RunSummary:
    """A run as the runs list (EXTENSION ``GET /api/agents/:id/runs``) gives it: no prompt;
    ``task_source`` names only the notes the caller may read."""

    id: str
    agent_id: str
    created_at: str
    created_by_name: str
    task_source: TaskSource
