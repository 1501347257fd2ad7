"""The fleet's records, shared by the client, the desk and the command line."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.limits import EMBED_BUDGET_BYTES

NEAR_BUDGET = 0.9
"""Past this share of the 64 KB budget an agent is marked before it is over."""

# What a row may not know (``HealthRow.unknown``): a server with only the spec's endpoints
# tells a Task and its unreachable embeds, nothing of the budget, proposals or runs.
EMBEDDED = "embedded"
UNREACHABLE = "unreachable"
PROPOSALS = "proposals"
RUNS = "runs"


@dataclass(frozen=True, slots=True)
class HealthRow:
    """One agent as ``GET /api/org/health`` gives it."""

    id: str
    name: str
    guild_id: str
    task_version: int
    task_bytes: int
    embedded_bytes: int
    over_budget: bool
    broken_embeds: int
    shape: tuple[str, ...]
    open_proposals: int
    last_run_at: str | None
    prompt_changed_since_run: bool | None
    unknown: frozenset[str] = frozenset()  # facts this server doesn't tell (EMBEDDED, …)

    @property
    def near_budget(self) -> bool:
        return self.embedded_bytes > NEAR_BUDGET * EMBED_BUDGET_BYTES

    @property
    def broken(self) -> bool:
        """What CI's gate fails on: over budget, or an embed a run can't reach."""
        return self.over_budget or self.broken_embeds > 0


@dataclass(frozen=True, slots=True)
class LineMatch:
    line: int  # 1-based
    column: int  # 1-based
    text: str


@dataclass(frozen=True, slots=True)
class AgentMatches:
    """One agent's matching lines in a search."""

    id: str
    name: str
    matches: tuple[LineMatch, ...]


@dataclass(frozen=True, slots=True)
class LiveTaskText:
    """An agent's live Task without its revisions (``GET /api/org/tasks``)."""

    agent_id: str
    version: int
    content: str


@dataclass(frozen=True, slots=True)
class PlannedTaskChange:
    """One Task of a change set to send: its new text on the version it was made from."""

    agent_id: str
    expected_version: int
    content: str


@dataclass(frozen=True, slots=True)
class VersionRef:
    agent_id: str
    version: int


@dataclass(frozen=True, slots=True)
class ChangeSet:
    """A change set as the server answers for it; ``contents`` only when asked for one."""

    id: str
    title: str
    author_name: str
    created_at: str
    versions: tuple[VersionRef, ...]
    skipped: tuple[tuple[str, str], ...] = ()  # (agent id, reason): a revert's
    contents: tuple[tuple[str, int, str], ...] = ()  # (agent id, version, content)


@dataclass(frozen=True, slots=True)
class AuditEvent:
    at: str
    kind: str
    by_name: str
    agent_ids: tuple[str, ...]
    version: int | None = None
    display_path: str | None = None
    proposal_id: str | None = None
    change_set_id: str | None = None
    title: str | None = None
