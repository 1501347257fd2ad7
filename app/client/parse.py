"""JSON answers into the shared dataclasses, checking their shape; anything off is a BadResponse."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TypeVar

import orjson

from app.client.compact_notes import compact_notes, is_compact
from app.client.errors import BadResponse
from app.client.json_pieces import decode_in_pieces
from app.client.runs import RunInfo, RunNote, RunSummary, TaskSource
from app.core import model_json
from app.core.model_json import Fields, ShapeError
from app.core.models import AgentEmbedStatus, AgentRow, EmbeddableNote, Guild, Me, OrgFile, TaskDoc

T = TypeVar("T")


def parse_answer(
    body: bytes,
    what: str,
    build: Callable[[object], T],
    content_type: str = "",
    *,
    long_lists: Collection[str] = (),
) -> T:
    """Decode ``body`` as JSON and build the result with ``build``; ``what`` names it in messages.

    ``long_lists``: members that may hold tens of thousands of items, decoded one item at a
    time (``decode_in_pieces``) so the decoding never holds the GIL, and the window, long.
    No KeyError, TypeError or ValueError escapes: a malformed answer is a BadResponse.
    """
    try:
        data = decode_in_pieces(body, long_lists) if long_lists else orjson.loads(body)
    # ValueError: orjson's and json's decode errors, and bytes that aren't UTF-8.
    # RecursionError: nesting deeper than Python's stack (json's decoder recurses per level);
    # no answer of the API nests more than a few levels, so it is as malformed as any other.
    except (ValueError, RecursionError):
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


def me_from(data: object) -> Me:
    return model_json.me(Fields(data, "the answer"))


def agents_from(data: object) -> list[AgentRow]:
    rows = Fields(data, "the answer").objects("agents", "an agent")
    return [model_json.agent_row(r) for r in rows]


def guilds_from(data: object) -> list[Guild]:
    return [model_json.guild(g) for g in Fields(data, "the answer").objects("guilds", "a guild")]


def task_from(agent_id: str, etag: str | None) -> Callable[[object], TaskDoc]:
    """The Task answer's builder: the agent id and the ETag come with the request, not the body."""

    def build(data: object) -> TaskDoc:
        return model_json.task_doc(Fields(data, "the answer"), agent_id=agent_id, etag=etag)

    return build


def embed_status_from(data: object) -> list[AgentEmbedStatus]:
    return [
        model_json.agent_embed_status(a, file_key=model_json.WIRE_FILE_KEY)
        for a in Fields(data, "the answer").objects("agents", "an agent")
    ]


def embeddable_notes_from(data: object) -> tuple[list[EmbeddableNote], list[str]]:
    """The picker rows, and why each item the picker can't use was skipped; from the spec's
    list or the compact form (EXTENSION), whichever the server answered."""
    if is_compact(data):
        return compact_notes(data)
    return model_json.embeddable_notes(Fields(data, "the answer").value("notes"))


def note_from(data: object) -> OrgFile:
    return model_json.org_file(Fields(data, "the answer"))


def task_source_from(f: Fields) -> TaskSource:
    return TaskSource(
        version=f.whole("version"),
        hash=f.text("hash"),
        display_path=f.text("display_path"),
        has_embeds=f.flag("has_embeds"),
        embeds=f.texts("embeds"),
        notes=tuple(
            RunNote(
                n.text("display_path"), n.whole("version"), n.text("content_hash"), n.text("kind")
            )
            for n in f.objects("notes", "a run note")
        ),
        collections=f.texts("collections"),
    )


def run_from(data: object) -> RunInfo:
    d = Fields(data, "the answer")
    return RunInfo(
        d.text("id"),
        d.text("system_prompt"),
        task_source_from(d.nested("task_source", "task_source")),
        d.optional_text("agent_id") or "",
        d.optional_text("created_at") or "",
    )


def runs_from(data: object) -> list[RunSummary]:
    return [
        RunSummary(
            r.text("id"),
            r.text("agent_id"),
            r.text("created_at"),
            r.optional_text("created_by_name") or "",
            task_source_from(r.nested("task_source", "task_source")),
        )
        for r in Fields(data, "the answer").objects("runs", "a run")
    ]
