"""Turns the shared models into JSON for the offline cache and back.

Decoding is strict about shape: a row written by another version that doesn't fit raises
ValueError, and the cache treats it as a miss rather than showing half a value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any, TypeVar

import orjson

from app.core.models import (
    AccessEntry,
    AgentEmbedStatus,
    AgentRow,
    BrokenEmbed,
    EmbeddableNote,
    Guild,
    Me,
    OrgFile,
    Revision,
    TaskDoc,
)

T = TypeVar("T")


def encode(value: object) -> bytes:
    """Any of the cached models (or a list of them) as JSON bytes."""
    return orjson.dumps(value, default=_dataclass_as_dict)


def _dataclass_as_dict(value: object) -> Any:
    return asdict(value)  # type: ignore[call-overload]  # only dataclasses reach here


def decode(body: bytes, build: Callable[[Any], T]) -> T:
    try:
        return build(orjson.loads(body))
    except (KeyError, TypeError, AttributeError, orjson.JSONDecodeError) as exc:
        raise ValueError(f"cache row has an unexpected shape: {type(exc).__name__}") from None


def _access(items: Any) -> tuple[AccessEntry, ...]:
    return tuple(AccessEntry(a["principal"], a["role"]) for a in items)


def org_file(d: Any) -> OrgFile:
    return OrgFile(
        display_path=d["display_path"],
        kind=d["kind"],
        title=d["title"],
        text=d["text"],
        version=d["version"],
        access=_access(d["access"]),
    )


def task_doc(d: Any) -> TaskDoc:
    return TaskDoc(
        agent_id=d["agent_id"],
        path=d["path"],
        display_path=d["display_path"],
        content=d["content"],
        version=d["version"],
        revisions=tuple(
            Revision(r["version"], r["content"], r["replaced_at"], r["replaced_by_name"])
            for r in d["revisions"]
        ),
        updated_at=d["updated_at"],
        updated_by_name=d["updated_by_name"],
        etag=d["etag"],
    )


def me(d: Any) -> Me:
    return Me(d["id"], d["name"], d["type"], d["org_id"])


def agents(items: Any) -> list[AgentRow]:
    return [AgentRow(a["id"], a["name"], a["guild_id"], a["task_version"]) for a in items]


def guilds(items: Any) -> list[Guild]:
    return [Guild(g["id"], g["name"]) for g in items]


def embeddable_notes(items: Any) -> list[EmbeddableNote]:
    return [EmbeddableNote(n["display_path"], n["title"], n["kind"], n["level"]) for n in items]


def embed_status(items: Any) -> list[AgentEmbedStatus]:
    return [
        AgentEmbedStatus(
            a["id"],
            tuple(BrokenEmbed(b["path"], b["hop"], b["in_path"]) for b in a["broken_embeds"]),
        )
        for a in items
    ]
