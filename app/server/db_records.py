"""What the reference server's database hands out and raises: records, errors, row readers."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app.core.expander import EMBED_RE, embed_path
from app.core.models import AccessEntry, Kind, OrgFile, PersonType


def utc_now() -> str:
    """Now as ISO 8601 UTC with milliseconds, the form every stored time takes."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class DatabaseError(RuntimeError):
    """The database file cannot be opened or is not a Taskdesk server database."""


class VersionConflictError(Exception):
    """A save named a version that is no longer the live one."""

    def __init__(self, live_version: int) -> None:
        super().__init__(f"version conflict (live version {live_version})")
        self.live_version = live_version


class FileEmbeddedError(Exception):
    """A delete refused because live Tasks embed the file directly."""

    def __init__(self, agent_ids: list[str]) -> None:
        super().__init__(", ".join(agent_ids))
        self.agent_ids = agent_ids


@dataclass(frozen=True, slots=True)
class RevisionRecord:
    version: int
    content: str
    replaced_at: str
    replaced_by_type: str
    replaced_by_id: str
    replaced_by_name: str


@dataclass(frozen=True, slots=True)
class TaskRecord:
    """The live Task of an agent as stored, with its earlier versions newest first."""

    agent_id: str
    content: str
    version: int
    hash: str
    updated_at: str
    updated_by_type: str
    updated_by_id: str
    updated_by_name: str
    revisions: tuple[RevisionRecord, ...] = ()


@dataclass(frozen=True, slots=True)
class AgentRecord:
    id: str
    name: str
    guild_id: str
    task_version: int


def embedded_paths(task_text: str) -> set[str]:
    """The paths a Task embeds directly (its own ``![[…]]``; notes are not read)."""
    return {embed_path(m.group(1)) for m in EMBED_RE.finditer(task_text)}


def person_type(value: str) -> PersonType:
    if value == "member":
        return "member"
    if value == "agent":
        return "agent"
    return "operator"


def file_kind(value: str) -> Kind:
    return "note" if value == "note" else "collection" if value == "collection" else "file"


def access_list(stored: str) -> tuple[AccessEntry, ...]:
    return tuple(AccessEntry(e["principal"], e["role"]) for e in json.loads(stored))


def org_file(row: tuple[Any, ...]) -> OrgFile:
    return OrgFile(row[0], file_kind(row[1]), row[2], row[3], row[4], access_list(row[5]))
