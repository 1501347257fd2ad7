"""Plain dataclasses shared by the expander, server, client, store and app (no Qt here)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["note", "collection", "file"]
Level = Literal["org", "guild", "agent"]
PersonType = Literal["operator", "member", "agent"]


def sha256_hex(text: str) -> str:
    """The content hash the spec uses: sha256 hex of the UTF-8 text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class AccessEntry:
    principal: str  # agent:<id>, guild:<id>, user:<id> or org
    role: str  # read or write


@dataclass(frozen=True, slots=True)
class Reader:
    """Who an expansion is made as: the agent, and its guild."""

    agent_id: str
    guild_id: str

    def principals(self) -> frozenset[str]:
        return frozenset({f"agent:{self.agent_id}", f"guild:{self.guild_id}", "org"})


def can_read(access: tuple[AccessEntry, ...], reader: Reader) -> bool:
    """True when an access entry gives the reader, its guild or the org read or write."""
    principals = reader.principals()
    return any(e.role in ("read", "write") and e.principal in principals for e in access)


@dataclass(frozen=True, slots=True)
class OrgFile:
    """A note, a collection or another file (Memory, a record) of the org.

    ``text`` is None for anything but a note; ``title`` is a collection's name.
    """

    display_path: str
    kind: Kind
    title: str = ""
    text: str | None = None
    version: int = 1
    access: tuple[AccessEntry, ...] = ()

    @property
    def content_hash(self) -> str:
        return sha256_hex(self.text or "")


@dataclass(frozen=True, slots=True)
class Revision:
    """An earlier version of a Task, as GET task.md lists it (newest first)."""

    version: int
    content: str
    replaced_at: str  # ISO 8601, any offset
    replaced_by_name: str | None  # None: the server names nobody (a deleted person, a system)
    proposal_author: str | None = None  # published from a proposal by this person (EXTENSION)
    change_set_title: str | None = None  # EXTENSION: the change set that made this version


@dataclass(frozen=True, slots=True)
class TaskDoc:
    """The live Task of one agent and its earlier versions."""

    agent_id: str
    path: str
    display_path: str
    content: str
    version: int
    revisions: tuple[Revision, ...] = ()
    updated_at: str | None = None
    updated_by_name: str | None = None
    etag: str | None = None
    seeded: bool = False  # the text the workspace file seeded, edited by nobody since
    proposal_author: str | None = None  # published from a proposal by this person (EXTENSION)
    change_set_title: str | None = None  # EXTENSION: the change set that made the live version


@dataclass(frozen=True, slots=True)
class Me:
    id: str
    name: str
    type: PersonType
    org_id: str


@dataclass(frozen=True, slots=True)
class AgentRow:
    id: str
    name: str
    guild_id: str
    task_version: int


@dataclass(frozen=True, slots=True)
class Guild:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class EmbeddableNote:
    """A row of the Insert picker: a note or a collection the caller can read.

    ``access`` is its access list where the server shares it (an extension), None where it
    doesn't: then whether an agent can read it can't be checked here.
    """

    display_path: str
    title: str
    kind: Literal["note", "collection"]
    level: Level
    access: tuple[AccessEntry, ...] | None = None

    def readable_by(self, reader: Reader) -> bool | None:
        """Whether ``reader`` can read it, by the expander's rule; None: can't be checked."""
        return None if self.access is None else can_read(self.access, reader)


@dataclass(frozen=True, slots=True)
class BrokenEmbed:
    """An embed the run replaces with the marker: its path, hop and the file holding it."""

    path: str
    hop: int
    in_path: str  # "in" on the wire

    def to_json(self) -> dict[str, object]:
        return {"path": self.path, "hop": self.hop, "in": self.in_path}


@dataclass(frozen=True, slots=True)
class AgentEmbedStatus:
    id: str
    broken_embeds: tuple[BrokenEmbed, ...] = field(default_factory=tuple)
    embedded_bytes: int | None = None  # what a run would embed; None: the server didn't say
