"""The shared models read back from decoded JSON, one typed decoder per model, every field checked.

The client reads the server's answers with these and the store reads its offline cache with
them. The two formats differ in a few fields, and the decoders take those as arguments: on the
wire a Task's agent id and ETag come from the request, in the cache they are in the row; a
broken embed names its file ``in`` on the wire and ``in_path`` in the cache.
"""

from __future__ import annotations

import sys
from typing import Literal, TypeVar, cast, get_args

from app.core.models import (
    AccessEntry,
    AgentEmbedStatus,
    AgentRow,
    BrokenEmbed,
    EmbeddableNote,
    Guild,
    Kind,
    Level,
    Me,
    OrgFile,
    PersonType,
    Revision,
    TaskDoc,
)

C = TypeVar("C", bound=str)

PERSON_TYPES: tuple[PersonType, ...] = get_args(PersonType)
FILE_KINDS: tuple[Kind, ...] = get_args(Kind)
NOTE_KINDS: tuple[Literal["note", "collection"], ...] = ("note", "collection")
LEVELS: tuple[Level, ...] = get_args(Level)

WIRE_FILE_KEY = "in"  # BrokenEmbed.in_path as the API names it
CACHE_FILE_KEY = "in_path"  # the same field as the cache stores it (the dataclass's name)


class ShapeError(ValueError):
    """A value that is not the shape a model needs; the message names the field."""


class Fields:
    """One JSON object, read a field at a time with the field's type checked."""

    __slots__ = ("_data",)

    def __init__(self, value: object, what: str) -> None:
        if not isinstance(value, dict):
            raise ShapeError(f"{what} is not an object")
        self._data: dict[str, object] = value

    def text(self, key: str) -> str:
        value = self._data.get(key)
        if not isinstance(value, str):
            raise ShapeError(f"“{key}” is not text")
        return value

    def has(self, key: str) -> bool:
        """The field is present and not null."""
        return self._data.get(key) is not None

    def optional_text(self, key: str) -> str | None:
        value = self._data.get(key)
        if value is None or isinstance(value, str):
            return value
        raise ShapeError(f"“{key}” is not text")

    def whole(self, key: str) -> int:
        value = self._data.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise ShapeError(f"“{key}” is not a whole number")
        return value

    def flag(self, key: str) -> bool:
        value = self._data.get(key)
        if not isinstance(value, bool):
            raise ShapeError(f"“{key}” is not true or false")
        return value

    def choice(self, key: str, allowed: tuple[C, ...]) -> C:
        value = self._data.get(key)
        for option in allowed:
            if value == option:
                return option
        raise ShapeError(f"“{key}” is not one of {', '.join(allowed)}")

    def texts(self, key: str) -> tuple[str, ...]:
        items = self._list(key)
        if not all(isinstance(item, str) for item in items):
            raise ShapeError(f"an entry of “{key}” is not text")
        return tuple(str(item) for item in items)

    def objects(self, key: str, what: str) -> list[Fields]:
        """The list under ``key``, each entry an object (``what`` names one in messages)."""
        return objects(self._list(key), what, key)

    def present(self, key: str) -> bool:
        """Whether ``key`` is there with a value (not missing, not null)."""
        return self._data.get(key) is not None

    def optional_objects(self, key: str, what: str) -> list[Fields]:
        """As `objects`, with a missing or null list read as empty."""
        if self._data.get(key) is None:
            return []
        return self.objects(key, what)

    def value(self, key: str) -> object:
        """The raw value under ``key`` (None when absent), for a decoder that checks it itself."""
        return self._data.get(key)

    def nested(self, key: str, what: str) -> Fields:
        """The object under ``key``."""
        return Fields(self._data.get(key), what)

    def _list(self, key: str) -> list[object]:
        value = self._data.get(key)
        if not isinstance(value, list):
            raise ShapeError(f"“{key}” is not a list")
        return value


def objects(value: object, what: str, key: str = "the list") -> list[Fields]:
    """A JSON list whose every entry is an object."""
    if not isinstance(value, list):
        raise ShapeError(f"{key} is not a list")
    return [Fields(item, what) for item in value]


def me(f: Fields) -> Me:
    return Me(f.text("id"), f.text("name"), f.choice("type", PERSON_TYPES), f.text("org_id"))


def agent_row(f: Fields) -> AgentRow:
    return AgentRow(f.text("id"), f.text("name"), f.text("guild_id"), f.whole("task_version"))


def guild(f: Fields) -> Guild:
    return Guild(f.text("id"), f.text("name"))


def revision(f: Fields) -> Revision:
    # Who replaced a version is shown, never relied on: a deleted person or a system actor
    # legitimately comes as null or not at all.
    return Revision(
        f.whole("version"),
        f.text("content"),
        f.text("replaced_at"),
        f.optional_text("replaced_by_name"),
        proposal_author(f),
        _change_set_title(f),
    )


def proposal_author(f: Fields) -> str | None:
    """Who proposed the version (``proposal: {id, author_name}`` on the wire, the plain
    field in the local cache); None for a version no proposal made."""
    if f.present("proposal"):
        return f.nested("proposal", "the proposal").optional_text("author_name")
    return f.optional_text("proposal_author")


def _change_set_title(f: Fields) -> str | None:
    """A version a change set made names it (``change_set: {id, title}``, EXTENSION); the
    cache keeps the title alone."""
    if f.present("change_set_title"):
        return f.optional_text("change_set_title")
    if not f.present("change_set"):
        return None
    return f.nested("change_set", "the change set").text("title")


def task_doc(f: Fields, *, agent_id: str, etag: str | None) -> TaskDoc:
    return TaskDoc(
        agent_id=agent_id,
        path=f.text("path"),
        display_path=f.text("display_path"),
        content=f.text("content"),
        version=f.whole("version"),
        revisions=tuple(revision(r) for r in f.objects("revisions", "a revision")),
        updated_at=f.optional_text("updated_at"),
        updated_by_name=f.optional_text("updated_by_name"),
        etag=etag,
        seeded=f.flag("seeded") if f.present("seeded") else False,
        proposal_author=proposal_author(f),
        change_set_title=_change_set_title(f),
    )


def embeddable_note(
    f: Fields, shared: dict[tuple[AccessEntry, ...], tuple[AccessEntry, ...]] | None = None
) -> EmbeddableNote:
    """A picker row; a missing title is the file name, a missing level is read from the path.

    ``shared``: the access lists met so far, so equal ones are one object (50,000 notes of
    an org share a few dozen lists; one copy each took 30 MB).
    """
    path = f.text("display_path")
    kind = f.choice("kind", NOTE_KINDS)
    access = access_list(f) if f.present("access") else None
    if access is not None and shared is not None:
        access = shared.setdefault(access, access)
    return EmbeddableNote(
        path,
        f.optional_text("title") or file_title(path),
        _interned(kind),
        _interned(f.choice("level", LEVELS)) if f.has("level") else level_of(path),
        access,
    )


def _interned(word: C) -> C:
    """One object per kind and level word, not one per row."""
    return cast(C, sys.intern(word))


def access_list(f: Fields) -> tuple[AccessEntry, ...]:
    return tuple(
        AccessEntry(a.text("principal"), a.text("role"))
        for a in f.optional_objects("access", "an access entry")
    )


def embeddable_notes(items: object) -> tuple[list[EmbeddableNote], list[str]]:
    """The usable picker rows of a list, and why each other item was left out.

    The list only feeds the Insert picker, so an item it can't use (a record, a Memory, an
    entry without a path) is skipped rather than refusing the whole answer.
    """
    if not isinstance(items, list):
        raise ShapeError("“notes” is not a list")  # no list at all: not this endpoint's answer
    usable: list[EmbeddableNote] = []
    skipped: list[str] = []
    shared: dict[tuple[AccessEntry, ...], tuple[AccessEntry, ...]] = {}
    for item in items:
        try:
            usable.append(embeddable_note(Fields(item, "a note"), shared))
        except ShapeError as exc:
            path = item.get("display_path") if isinstance(item, dict) else None
            kind = item.get("kind") if isinstance(item, dict) else None
            named = f"“{path}”" if isinstance(path, str) else "an item"
            what = f" (kind {kind})" if isinstance(kind, str) and kind not in NOTE_KINDS else ""
            skipped.append(f"{named}{what}: {exc}")
    return usable, skipped


def file_title(display_path: str) -> str:
    """What a note without a title is called: its file name without a final ``.md``."""
    name = display_path.rstrip("/").rsplit("/", 1)[-1]
    return name[:-3] if name.lower().endswith(".md") and len(name) > 3 else name


def level_of(display_path: str) -> Level:
    """The level a display path implies (shared/spec/EXPANSION.md §2)."""
    parts = display_path.split("/")
    second = parts[2] if len(parts) > 3 else ""
    return "guild" if second == "guilds" else "agent" if second == "agents" else "org"


def agent_embed_status(f: Fields, *, file_key: str) -> AgentEmbedStatus:
    """An agent's broken embeds; ``file_key``: WIRE_FILE_KEY or CACHE_FILE_KEY."""
    return AgentEmbedStatus(
        f.text("id"),
        tuple(
            BrokenEmbed(b.text("path"), b.whole("hop"), b.text(file_key))
            for b in f.objects("broken_embeds", "a broken embed")
        ),
        f.whole("embedded_bytes") if f.present("embedded_bytes") else None,
    )


def org_file(f: Fields) -> OrgFile:
    """A note, collection or file; a note must carry its text, anything else carries none."""
    kind = f.choice("kind", FILE_KINDS)
    text = f.optional_text("text")
    if kind == "note" and text is None:
        raise ShapeError("a note came without its “text”")
    return OrgFile(
        display_path=f.text("display_path"),
        kind=kind,
        title=f.optional_text("title") or "",
        text=text if kind == "note" else None,
        version=f.whole("version"),
        access=access_list(f),
    )
