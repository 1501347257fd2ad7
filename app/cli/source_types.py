"""What the commands read an org through: ``AgentInfo`` and the ``OrgSource`` protocol.

The workspace file (``org_source``) and a live server (``server_source``) each provide one;
both import these from here, so neither imports the other at module level.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from app.core.marker_reasons import EarlierFile
from app.core.models import OrgFile


@dataclass(frozen=True, slots=True)
class AgentInfo:
    id: str
    name: str
    guild_id: str


class OrgSource(Protocol):
    """An org to read agents, Tasks and files from."""

    org_id: str
    where: str  # "in the workspace", "on <url>": for messages

    def agents(self) -> list[AgentInfo]: ...

    def task(self, agent_id: str) -> tuple[str, int]: ...

    def lookup(self, path: str) -> OrgFile | None: ...

    def history(self, agent_id: str) -> tuple[EarlierFile, ...]: ...

    def close(self) -> None: ...
