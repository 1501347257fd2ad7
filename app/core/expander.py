"""The embed expander: one pure function that both the reference server and the preview run.

The rules are ``shared/spec/EXPANSION.md``, section by section; section numbers below refer
to it. The expander never raises on any text: whatever cannot be inlined becomes the marker.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from app.core.limits import EMBED_BUDGET_BYTES, EMBED_DEPTH, MARKER_MESSAGE
from app.core.models import BrokenEmbed, Level, OrgFile, Reader, sha256_hex

EMBED_RE = re.compile(r"!\[\[([^\[\]\r\n]+)\]\]")
"""Section 1: ``![[`` + at least one character without brackets or line breaks + ``]]``."""

RESERVED_NAMES = frozenset({"guidelines", "task", "state", "memory", "unreachable"})
_NOT_NAME_CHARS = re.compile(r"[^A-Za-z0-9_-]")
_NAME_START = re.compile(r"[A-Za-z_]")
_MD_SUFFIX = re.compile(r"\.md\Z", re.IGNORECASE)
_READ_ROLES = ("read", "write")
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})

Lookup = Callable[[str], OrgFile | None]
"""Finds an org file by display path; None when there is none."""

PATHS_KEPT = 32_768
"""Paths whose small rules are remembered: a prompt search of a big org's 5,000 agents meets
about 10,000 notes, and with fewer kept each agent's paths pushed out the ones the next
agent needed."""


# ---------------------------------------------------------------- small pure rules


def embed_path(inner: str) -> str:
    """Section 1: the path is INNER with surrounding spaces and tabs stripped."""
    return inner.strip(" \t")


@lru_cache(maxsize=PATHS_KEPT)  # pure and called per embed: the preview re-expands on every pause
def is_display_path(path: str, org_id: str) -> bool:
    """Section 2: ``org/<org_id>/<rest>``, no empty, ``.`` or ``..`` segment, no backslash."""
    if "\\" in path:
        return False
    parts = path.split("/")
    if len(parts) < 3 or parts[0] != "org" or parts[1] != org_id:
        return False
    return all(p not in ("", ".", "..") for p in parts)


@lru_cache(maxsize=PATHS_KEPT)
def level_of(path: str) -> Level:
    """Section 2: guild for ``org/<org>/guilds/…``, agent for ``…/agents/…``, else org."""
    parts = path.split("/", 3)
    if len(parts) == 4 and parts[2] == "guilds":
        return "guild"
    if len(parts) == 4 and parts[2] == "agents":
        return "agent"
    return "org"


def file_stem(path: str) -> str:
    """The last path segment without a final ``.md`` (any case)."""
    return _MD_SUFFIX.sub("", path.rsplit("/", 1)[-1])


@lru_cache(maxsize=PATHS_KEPT)
def element_name(path: str) -> str:
    """Section 4: the element a note is wrapped in, named after its file."""
    name = _NOT_NAME_CHARS.sub("", file_stem(path))
    if not name:
        return "note"
    if not _NAME_START.match(name) or name.lower() in RESERVED_NAMES:
        return "note-" + name
    return name


def escape_attr(value: str) -> str:
    """Section 4: ``&``, ``<``, ``>`` and ``"`` escaped for an attribute value."""
    # Paths rarely hold any of them: four substring tests cost a fifth of the translate.
    if "&" in value or "<" in value or ">" in value or '"' in value:
        return value.translate(_ESCAPES)
    return value


@lru_cache(maxsize=PATHS_KEPT)
def marker(path: str) -> str:
    """Section 6: what stands where an embed cannot reach its file."""
    return f'<unreachable path="{escape_attr(path)}" message="{MARKER_MESSAGE}" />'


def repeat_title(note: OrgFile) -> str:
    """Section 3.2: a note already inlined becomes its title, or its file stem."""
    return note.title if note.title else file_stem(note.display_path)


@lru_cache(maxsize=PATHS_KEPT)
def _opening_tag(path: str) -> tuple[str, Level, str]:
    """The element name, level and opening line a note at ``path`` is wrapped in."""
    name, level = element_name(path), level_of(path)
    return name, level, f'<{name} path="{escape_attr(path)}" level="{level}">\n'


def _stored_size(text: str) -> int:
    """UTF-8 bytes of ``text``; ASCII text (the usual note) needs no encoding to count.

    ``surrogatepass`` counts a lone surrogate (JSON can carry ``"\\ud800"``) as its three
    bytes instead of raising: the expander never raises on any text.
    """
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


# ---------------------------------------------------------------- the result


@dataclass(frozen=True, slots=True)
class TextPiece:
    """Task or note text that is not an embed, kept as written."""

    text: str


@dataclass(frozen=True, slots=True)
class NotePiece:
    """A note inlined at ``hop``, wrapped in ``<name path level>``; ``body`` is its content."""

    path: str
    name: str
    level: Level
    title: str
    hop: int
    body: tuple[Piece, ...]


@dataclass(frozen=True, slots=True)
class CollectionPiece:
    path: str
    name: str
    hop: int


@dataclass(frozen=True, slots=True)
class RepeatPiece:
    """A later embed of a note already inlined: its title stands in its place."""

    path: str
    title: str
    hop: int


@dataclass(frozen=True, slots=True)
class MarkerPiece:
    path: str
    hop: int
    in_path: str


Piece = TextPiece | NotePiece | CollectionPiece | RepeatPiece | MarkerPiece


@dataclass(frozen=True, slots=True)
class InlinedNote:
    """A note a run inlines, as ``task_source.notes`` records it.

    ``text`` is the note as stored; its hash is computed only when asked for, because the
    preview expands on every pause in typing and never needs it, while a run asks once.
    """

    display_path: str
    title: str
    level: Level
    version: int
    bytes: int
    hop: int
    text: str = field(default="", repr=False)

    @property
    def content_hash(self) -> str:
        return sha256_hex(self.text)

    def to_json(self) -> dict[str, object]:
        return {
            "display_path": self.display_path,
            "version": self.version,
            "content_hash": self.content_hash,
            "kind": "note",
        }


@dataclass(frozen=True, slots=True)
class Expansion:
    """The expanded Task and everything needed to explain it."""

    text: str
    pieces: tuple[Piece, ...]
    embeds: tuple[str, ...]  # the Task's own embed paths (hop 1), in order
    notes: tuple[InlinedNote, ...]
    collections: tuple[str, ...]  # display paths, each once, in order
    broken: tuple[BrokenEmbed, ...]
    embedded_bytes: int
    budget: int = EMBED_BUDGET_BYTES

    @property
    def over_budget(self) -> bool:
        return self.embedded_bytes > self.budget

    @property
    def has_embeds(self) -> bool:
        return bool(self.embeds)


# ---------------------------------------------------------------- expansion


class _Expander:
    """One expansion's state: what is inlined so far, and what was met, in output order."""

    def __init__(self, org_id: str, reader: Reader, lookup: Lookup, *, explain: bool) -> None:
        self.org_id = org_id
        self.reader = reader
        self.principals = reader.principals()
        self.lookup = lookup
        self.explain = explain  # False: the text and the sums only, no pieces or notes
        self.inlined: set[str] = set()
        self.notes: list[InlinedNote] = []
        self.collections: dict[str, None] = {}
        self.broken: list[BrokenEmbed] = []
        self.embedded_bytes = 0
        self.task_embeds: list[str] = []

    def expand(self, text: str, hop: int, holder: str) -> tuple[str, tuple[Piece, ...]]:
        # Most notes embed nothing: a substring test answers that without starting the regex.
        if hop > EMBED_DEPTH or "![[" not in text:
            return text, ((TextPiece(text),) if text and self.explain else ())
        explain = self.explain
        out: list[str] = []
        pieces: list[Piece] = []
        pos = 0
        for match in EMBED_RE.finditer(text):
            start = match.start()
            if start > pos:
                out.append(text[pos:start])
                if explain:
                    pieces.append(TextPiece(text[pos:start]))
            path = match.group(1).strip(" \t")  # embed_path(), inlined: it runs per embed
            if hop == 1:
                self.task_embeds.append(path)
            rendered, piece = self.resolve(path, hop, holder)
            out.append(rendered)
            if piece is not None:
                pieces.append(piece)
            pos = match.end()
        if not pos:  # "![[" but no embed: one scan of the text was all it took
            return text, ((TextPiece(text),) if text and explain else ())
        if pos < len(text):
            out.append(text[pos:])
            if explain:
                pieces.append(TextPiece(text[pos:]))
        return "".join(out), tuple(pieces)

    def resolve(self, path: str, hop: int, holder: str) -> tuple[str, Piece | None]:
        """What stands for the embed of ``path``, and its piece (None when not explaining)."""
        explain = self.explain
        found = self.lookup(path) if is_display_path(path, self.org_id) else None
        if found is not None and found.kind == "note" and found.display_path in self.inlined:
            title = repeat_title(found)
            return title, RepeatPiece(path, title, hop) if explain else None
        if found is not None and self.can_read(found):
            if found.kind == "note":
                return self.inline(found, hop)
            if found.kind == "collection":
                self.collections.setdefault(found.display_path, None)
                return found.title, CollectionPiece(path, found.title, hop) if explain else None
        self.broken.append(BrokenEmbed(path, hop, holder))
        return marker(path), MarkerPiece(path, hop, holder) if explain else None

    def can_read(self, found: OrgFile) -> bool:
        """``models.can_read`` with the reader's principals worked out once per expansion."""
        principals = self.principals
        for entry in found.access:  # a plain loop: a generator costs more than the check
            if entry.role in _READ_ROLES and entry.principal in principals:
                return True
        return False

    def inline(self, note: OrgFile, hop: int) -> tuple[str, Piece | None]:
        path = note.display_path
        stored = note.text or ""
        self.inlined.add(path)  # before recursing: a note that embeds itself gets its title
        size = _stored_size(stored)
        self.embedded_bytes += size
        name, level, head = _opening_tag(path)
        if self.explain:
            self.notes.append(InlinedNote(path, note.title, level, note.version, size, hop, stored))
        inner, body = self.expand(stored.rstrip("\r\n"), hop + 1, path)
        wrapped = f"{head}{inner}\n</{name}>"
        if not self.explain:
            return wrapped, None
        return wrapped, NotePiece(path, name, level, note.title, hop, body)


def expand_embeds(
    task_text: str,
    *,
    org_id: str,
    reader: Reader,
    lookup: Lookup | Mapping[str, OrgFile],
    task_path: str = "",
    budget: int = EMBED_BUDGET_BYTES,
    text_only: bool = False,
) -> Expansion:
    """Expand the embeds of ``task_text`` as ``reader`` would get them in a run.

    ``lookup`` finds org files by display path (a mapping works too). ``task_path`` is the
    Task's display path, recorded as the holder of hop-1 broken embeds. ``text_only``: the
    same walk, the same ``text``, embeds, collections, broken embeds and embedded bytes, but
    ``pieces`` and ``notes`` left empty: for a reader of the text and the sums alone (a
    prompt search over every agent, where making them was half the time).
    """
    find: Lookup = lookup.get if isinstance(lookup, Mapping) else lookup
    state = _Expander(org_id, reader, find, explain=not text_only)
    text, pieces = state.expand(task_text, 1, task_path)
    return Expansion(
        text=text,
        pieces=pieces,
        embeds=tuple(state.task_embeds),
        notes=tuple(state.notes),
        collections=tuple(state.collections),
        broken=tuple(state.broken),
        embedded_bytes=state.embedded_bytes,
        budget=budget,
    )


def task_display_path(org_id: str, agent_id: str) -> str:
    """The Task's virtual display path."""
    return f"org/{org_id}/agents/{agent_id}/task.md"


def task_source(expansion: Expansion, *, version: int, task_text: str, display_path: str) -> dict:
    """The run metadata ``task_source`` (API.md, POST runs) for an expansion."""
    return {
        "version": version,
        "hash": sha256_hex(task_text),
        "display_path": display_path,
        "has_embeds": expansion.has_embeds,
        "embeds": list(expansion.embeds),
        "notes": [n.to_json() for n in expansion.notes],
        "collections": list(expansion.collections),
    }
