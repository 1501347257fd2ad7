"""GET /api/org/embeddable-notes' bodies: the spec's list and the compact form, kept encoded.

The compact form (EXTENSION, asked with ``?form=compact``; docs/API-EXTENSIONS.md) says the
same in about a third of the bytes: each access list and folder once, in a table that the
entries point into, each entry a short array, and no ``level`` (the path gives it). Each
body is kept per caller and generation of the notes (the ETag names both), with its gzip
made once for clients that accept it. The ETag is a digest of the body itself, so it says
nothing of notes the caller can't read and stays put when only those change.
"""

from __future__ import annotations

import gzip
import hashlib
import threading
from dataclasses import dataclass, field
from typing import Any, Literal

import orjson

from app.core.expander import file_stem, level_of
from app.core.model_json import file_title
from app.core.models import AccessEntry, Kind, sha256_hex
from app.server.callers import Caller

Form = Literal["spec", "compact"]

COMPACT = "compact"
"""The query value that asks for the compact form, and the form the answer says it is in."""

COMPACT_KINDS: tuple[Kind, ...] = ("note", "collection")
"""The compact form's ``kinds`` table: entries name their kind by its index here."""

GZIP_LEVEL = 1  # a fifth of the bytes already; higher levels take five times as long
KEPT_BYTES = 96 * 1024 * 1024  # a dozen callers' lists of 50,000 notes, in either form

PickerRow = tuple[str, Kind, str, tuple[AccessEntry, ...]]
"""(display path, kind, stored title, access list) of one note or collection."""


def picker_key(generation: int, caller: Caller, form: Form, with_access: bool) -> str:
    """Where the answer is kept: the notes' generation, who asks (and what names them) and
    the form. Never sent: the generation counts every note of the org."""
    who = ":".join([caller.type, caller.id, *sorted(caller.principals())])
    return f"{form}-{generation}-{sha256_hex(who)[:16]}{'' if with_access else '-spec'}"


def picker_etag(form: Form, body: bytes) -> str:
    """The answer's ETag: its form and a digest of exactly the bytes this caller receives."""
    tag = {"spec": "notes", "compact": "notes-c"}[form]
    return f'"{tag}-{hashlib.sha256(body).hexdigest()[:32]}"'


@dataclass(slots=True)
class PickerBody:
    """One encoded answer and its ETag; its gzip is made the first time a client accepts one."""

    body: bytes
    etag: str
    _gzipped: bytes | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def gzipped(self) -> bytes:
        with self._lock:
            if self._gzipped is None:
                self._gzipped = gzip.compress(self.body, GZIP_LEVEL, mtime=0)
            return self._gzipped


class PickerBodies:
    """The encoded answers kept for the newest callers, of the newest generation only (an
    older one is never asked for again: the ETag names it), within ``KEPT_BYTES``."""

    def __init__(self) -> None:
        self._bodies: dict[str, PickerBody] = {}
        self._generation = -1
        self._rows: tuple[int, list[PickerRow]] | None = None  # every caller's rows, unfiltered
        self._lock = threading.Lock()

    def get(self, key: str) -> PickerBody | None:
        with self._lock:
            return self._bodies.get(key)

    def keep(self, key: str, generation: int, form: Form, body: bytes) -> PickerBody:
        kept = PickerBody(body, picker_etag(form, body))
        with self._lock:
            if generation < self._generation:
                return kept  # read before a change that another request has already seen
            if generation > self._generation:
                self._bodies.clear()
                self._generation = generation
            self._bodies[key] = kept
            total = sum(len(b.body) for b in self._bodies.values())
            while total > KEPT_BYTES and len(self._bodies) > 1:
                total -= len(self._bodies.pop(next(iter(self._bodies))).body)
        return kept

    def rows(self, generation: int) -> list[PickerRow] | None:
        """The rows read for ``generation``, shared by every caller; None: not read yet."""
        with self._lock:
            rows = self._rows
        return rows[1] if rows is not None and rows[0] == generation else None

    def keep_rows(self, generation: int, rows: list[PickerRow]) -> None:
        with self._lock:
            self._rows = (generation, rows)


def readable_rows(rows: list[PickerRow], caller: Caller) -> list[PickerRow]:
    """The rows the caller can read; each distinct access list is checked once."""
    if caller.is_operator:
        return rows
    verdicts: dict[int, bool] = {}  # the database decodes each distinct list once: by identity
    readable: list[PickerRow] = []
    for row in rows:
        access = row[3]
        verdict = verdicts.get(id(access))
        if verdict is None:
            verdict = verdicts[id(access)] = caller.can_read(access)
        if verdict:
            readable.append(row)
    return readable


def spec_body(rows: list[PickerRow], with_access: bool) -> bytes:
    """The spec's answer: ``{"notes": [{display_path, title, kind, level, access?}]}``."""
    return orjson.dumps(
        {
            "notes": [
                {
                    "display_path": path,
                    "title": title or file_stem(path),
                    "kind": kind,
                    "level": level_of(path),
                    **({"access": access_json(access)} if with_access else {}),
                }
                for path, kind, title, access in rows
            ]
        }
    )


def compact_body(rows: list[PickerRow]) -> bytes:
    """The compact form: every entry is ``[folder, file name, title, kind, access]``.

    ``folder`` indexes ``folders`` (each ends in ``/``; the display path is the folder and
    the file name joined as they are), ``kind`` indexes ``kinds`` and ``access`` indexes
    ``access``; ``title`` is ``""`` when it is the file name without ``.md`` (what a client
    calls an entry of the spec's list that has no title).
    """
    folders: dict[str, int] = {}
    lists: dict[int, int] = {}  # id of a decoded access list -> its index in the table
    table: list[list[list[str]]] = []
    kinds = {kind: i for i, kind in enumerate(COMPACT_KINDS)}
    entries: list[list[Any]] = []
    for path, kind, title, access in rows:
        head, slash, name = path.rpartition("/")
        folder = folders.setdefault(head + slash, len(folders))
        at = lists.get(id(access))
        if at is None:
            at = lists[id(access)] = len(table)
            table.append([[e.principal, e.role] for e in access])
        entries.append([folder, name, _compact_title(title, name, path), kinds[kind], at])
    return orjson.dumps(
        {
            "form": COMPACT,
            "kinds": COMPACT_KINDS,
            "folders": list(folders),
            "access": table,
            "entries": entries,
        }
    )


def _compact_title(title: str, name: str, path: str) -> str:
    """``""`` when the title is the one a client gives an entry without one: its file name
    without ``.md`` (``file_title``), as for the spec's answers."""
    if not name or name.lower() == ".md":  # odd paths: the exact, slower way
        shown = title or file_stem(path)
        return "" if shown == file_title(path) else shown
    plain = name[:-3] if name[-3:].lower() == ".md" else name  # both file_stem and file_title
    return "" if not title or title == plain else title


def access_json(access: tuple[AccessEntry, ...]) -> list[dict[str, str]]:
    """An access list as the spec's answers carry it."""
    return [{"principal": e.principal, "role": e.role} for e in access]


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether an Accept-Encoding header takes gzip (named, or ``*``, and not with q=0)."""
    for item in (accept_encoding or "").lower().split(","):
        coding, _, params = item.partition(";")
        if coding.strip() not in ("gzip", "x-gzip", "*"):
            continue
        q = params.strip().removeprefix("q=").strip() if "q=" in params else "1"
        try:
            return float(q) > 0
        except ValueError:
            return False
    return False
