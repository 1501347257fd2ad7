"""JSON answers into the shared dataclasses, checking their shape; anything off is a BadResponse."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import orjson

from app.client.errors import BadResponse
from app.client.runs import RunInfo, RunNote, TaskSource
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

PERSON_TYPES = ("operator", "member", "agent")
NOTE_KINDS = ("note", "collection")
FILE_KINDS = ("note", "collection", "file")
LEVELS = ("org", "guild", "agent")


class ShapeError(Exception):
    """Raised inside this module only; `parse_answer` turns it into a BadResponse."""


def parse_answer(body: bytes, what: str, build: Callable[[Any], T], content_type: str = "") -> T:
    """Decode ``body`` as JSON and build the result with ``build``; ``what`` names it in messages.

    No KeyError, TypeError or ValueError escapes: a malformed answer is a BadResponse.
    """
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        if "html" in content_type.lower() or body.lstrip()[:1] == b"<":
            raise BadResponse(
                f"The server sent a web page instead of {what}. The server address may point "
                "at a website or a sign-in portal rather than a Taskdesk server."
            ) from None
        raise BadResponse(
            f"The server's answer for {what} is not valid JSON. Try again; if it keeps "
            "happening, the server may be misconfigured."
        ) from None
    try:
        return build(data)
    except (ShapeError, KeyError, TypeError, ValueError, AttributeError) as exc:
        detail = str(exc) if isinstance(exc, ShapeError) else "a field is missing or wrong"
        raise BadResponse(
            f"The server's answer for {what} is not in the expected form ({detail})."
        ) from None


def _obj(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ShapeError(f"{what} is not an object")
    return value


def _str(d: dict[str, Any], key: str) -> str:
    value = d.get(key)
    if not isinstance(value, str):
        raise ShapeError(f"“{key}” is not text")
    return value


def _opt_str(d: dict[str, Any], key: str) -> str | None:
    value = d.get(key)
    if value is None or isinstance(value, str):
        return value
    raise ShapeError(f"“{key}” is not text")


def _int(d: dict[str, Any], key: str) -> int:
    value = d.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ShapeError(f"“{key}” is not a whole number")
    return value


def _list(d: dict[str, Any], key: str) -> list[Any]:
    value = d.get(key)
    if not isinstance(value, list):
        raise ShapeError(f"“{key}” is not a list")
    return value


def _choice(d: dict[str, Any], key: str, allowed: tuple[str, ...]) -> Any:
    value = d.get(key)
    if value not in allowed:
        raise ShapeError(f"“{key}” is not one of {', '.join(allowed)}")
    return value


def me_from(data: Any) -> Me:
    d = _obj(data, "the answer")
    return Me(_str(d, "id"), _str(d, "name"), _choice(d, "type", PERSON_TYPES), _str(d, "org_id"))


def agents_from(data: Any) -> list[AgentRow]:
    rows = _list(_obj(data, "the answer"), "agents")
    out = []
    for row in rows:
        r = _obj(row, "an agent")
        out.append(
            AgentRow(_str(r, "id"), _str(r, "name"), _str(r, "guild_id"), _int(r, "task_version"))
        )
    return out


def guilds_from(data: Any) -> list[Guild]:
    rows = _list(_obj(data, "the answer"), "guilds")
    return [Guild(_str(g, "id"), _str(g, "name")) for g in (_obj(r, "a guild") for r in rows)]


def revision_from(data: Any) -> Revision:
    r = _obj(data, "a revision")
    return Revision(
        _int(r, "version"), _str(r, "content"), _str(r, "replaced_at"), _str(r, "replaced_by_name")
    )


def task_from(agent_id: str, etag: str | None) -> Callable[[Any], TaskDoc]:
    def build(data: Any) -> TaskDoc:
        d = _obj(data, "the answer")
        return TaskDoc(
            agent_id=agent_id,
            path=_str(d, "path"),
            display_path=_str(d, "display_path"),
            content=_str(d, "content"),
            version=_int(d, "version"),
            revisions=tuple(revision_from(r) for r in _list(d, "revisions")),
            updated_at=_opt_str(d, "updated_at"),
            updated_by_name=_opt_str(d, "updated_by_name"),
            etag=etag,
        )

    return build


def embed_status_from(data: Any) -> list[AgentEmbedStatus]:
    out = []
    for row in _list(_obj(data, "the answer"), "agents"):
        a = _obj(row, "an agent")
        broken = tuple(
            BrokenEmbed(_str(b, "path"), _int(b, "hop"), _str(b, "in"))
            for b in (_obj(x, "a broken embed") for x in _list(a, "broken_embeds"))
        )
        out.append(AgentEmbedStatus(_str(a, "id"), broken))
    return out


def embeddable_notes_from(data: Any) -> list[EmbeddableNote]:
    out = []
    for row in _list(_obj(data, "the answer"), "notes"):
        n = _obj(row, "a note")
        out.append(
            EmbeddableNote(
                _str(n, "display_path"),
                _str(n, "title"),
                _choice(n, "kind", NOTE_KINDS),
                _choice(n, "level", LEVELS),
            )
        )
    return out


def access_from(data: Any) -> tuple[AccessEntry, ...]:
    if data is None:
        return ()
    if not isinstance(data, list):
        raise ShapeError("“access” is not a list")
    return tuple(
        AccessEntry(_str(e, "principal"), _str(e, "role"))
        for e in (_obj(x, "an access entry") for x in data)
    )


def note_from(data: Any) -> OrgFile:
    d = _obj(data, "the answer")
    kind = _choice(d, "kind", FILE_KINDS)
    text = _opt_str(d, "text")
    if kind == "note" and text is None:
        raise ShapeError("a note came without its “text”")
    return OrgFile(
        display_path=_str(d, "display_path"),
        kind=kind,
        title=_opt_str(d, "title") or "",
        text=text if kind == "note" else None,
        version=_int(d, "version"),
        access=access_from(d.get("access")),
    )


def task_source_from(data: Any) -> TaskSource:
    s = _obj(data, "task_source")
    has_embeds = s.get("has_embeds")
    if not isinstance(has_embeds, bool):
        raise ShapeError("“has_embeds” is not true or false")
    embeds = _list(s, "embeds")
    collections = _list(s, "collections")
    if not all(isinstance(e, str) for e in [*embeds, *collections]):
        raise ShapeError("an embed or collection path is not text")
    notes = tuple(
        RunNote(
            _str(n, "display_path"), _int(n, "version"), _str(n, "content_hash"), _str(n, "kind")
        )
        for n in (_obj(x, "a run note") for x in _list(s, "notes"))
    )
    return TaskSource(
        version=_int(s, "version"),
        hash=_str(s, "hash"),
        display_path=_str(s, "display_path"),
        has_embeds=has_embeds,
        embeds=tuple(embeds),
        notes=notes,
        collections=tuple(collections),
    )


def run_from(data: Any) -> RunInfo:
    d = _obj(data, "the answer")
    return RunInfo(_str(d, "id"), _str(d, "system_prompt"), task_source_from(d.get("task_source")))
