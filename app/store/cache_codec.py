"""Turns the shared models into JSON for the offline cache and back.

Decoding is strict about shape (app/core/model_json.py, the same decoders the client reads
the server's answers with): a row written by another version that doesn't fit raises
ValueError, and the cache treats it as a miss rather than showing half a value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, is_dataclass
from typing import TypeVar

import orjson

from app.core import model_json
from app.core.model_json import Fields, objects
from app.core.models import AgentEmbedStatus, AgentRow, Guild, Me, OrgFile, TaskDoc

T = TypeVar("T")


def encode(value: object) -> bytes:
    """Any of the cached models (or a list of them) as JSON bytes."""
    return orjson.dumps(value, default=_dataclass_as_dict)


def _dataclass_as_dict(value: object) -> dict[str, object]:
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    raise TypeError(f"the cache stores the shared models only, not {type(value).__name__}")


def decode(body: bytes, build: Callable[[object], T]) -> T:
    try:
        return build(orjson.loads(body))
    except ValueError as exc:  # ShapeError and orjson's JSONDecodeError are ValueErrors
        raise ValueError(f"cache row has an unexpected shape: {exc}") from None


def org_file(data: object) -> OrgFile:
    return model_json.org_file(Fields(data, "a note"))


def task_doc(data: object) -> TaskDoc:
    f = Fields(data, "a Task")
    return model_json.task_doc(f, agent_id=f.text("agent_id"), etag=f.optional_text("etag"))


def me(data: object) -> Me:
    return model_json.me(Fields(data, "who you are"))


def agents(data: object) -> list[AgentRow]:
    return [model_json.agent_row(a) for a in objects(data, "an agent")]


def guilds(data: object) -> list[Guild]:
    return [model_json.guild(g) for g in objects(data, "a guild")]


def embed_status(data: object) -> list[AgentEmbedStatus]:
    return [
        model_json.agent_embed_status(a, file_key=model_json.CACHE_FILE_KEY)
        for a in objects(data, "an agent")
    ]
