"""A Task's earlier texts read once: answers without them (EXTENSION ``?revisions=summary``),
filled from the texts the client already holds, and each one it lacks fetched on its own.

An earlier version's text never changes, and the text a save archives is the live text the
client last read, so after the first read a save's or a re-read's answer needs no earlier
text at all: 50 kept revisions of a 256 KB Task are up to 80 MB on the wire each time.
Each revision of such an answer carries its text's SHA-256 (``content_hash``); a held text
is used only when it has that hash (a server whose database was replaced meanwhile may
number other texts the same), else the text is fetched.
A server that ignores the query sends the texts anyway; one without the one-revision route
answers 404 ``not found`` and the Task is read whole instead (``HistoryIncompleteError``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from app.core.model_json import Fields
from app.core.models import TaskDoc, sha256_hex

SUMMARY_QUERY = "?revisions=summary"

T = TypeVar("T")


class HistoryIncompleteError(Exception):
    """An answer left a revision's text out and it could not be fetched on its own."""


def known_texts(doc: TaskDoc | None) -> dict[int, str]:
    """Every text of the agent's Task the client holds, by version."""
    if doc is None:
        return {}
    texts = {r.version: r.content for r in doc.revisions}
    texts[doc.version] = doc.content
    return texts


Fetch = Callable[[int], "str | None"]
"""A revision's text by version; None when the server no longer keeps it (it is then left
out of the history, as the server has left it out), or HistoryIncompleteError."""


class KnownTexts:
    """The texts of one agent's Task the client holds, by version, each hashed when first
    compared (and only once: the next answer compares the same texts again)."""

    def __init__(self, doc: TaskDoc | None, hashes: dict[int, str] | None = None) -> None:
        self.texts = known_texts(doc)
        self.hashes = {v: h for v, h in (hashes or {}).items() if v in self.texts}

    def text_with_hash(self, version: int, digest: object) -> str | None:
        text = self.texts.get(version)
        if text is None or not isinstance(digest, str):
            return None
        held = self.hashes.get(version)
        if held is None:
            held = self.hashes[version] = sha256_hex(text)
        return text if held == digest else None


def fill_texts(data: object, known: KnownTexts, fetch: Fetch) -> object:
    """The decoded Task answer with each revision's text put back: the one held when its
    hash is the answer's, else ``fetch(version)``. Anything odd is left for the parser."""
    if not isinstance(data, dict):
        return data
    revisions = data.get("revisions")
    if not isinstance(revisions, list):
        return data
    kept = []
    for revision in revisions:
        version = revision.get("version") if isinstance(revision, dict) else None
        if type(version) is not int:
            kept.append(revision)
            continue
        assert isinstance(revision, dict)
        if "content" in revision:
            known.hashes.pop(version, None)  # the answer's own text: not one compared
        else:
            digest = revision.get("content_hash")
            text = known.text_with_hash(version, digest)
            if text is None:
                text = fetch(version)
                if text is None:
                    continue
                known.texts[version] = text
                if isinstance(digest, str):
                    known.hashes[version] = digest
                else:
                    known.hashes.pop(version, None)
            revision["content"] = text
        kept.append(revision)
    data["revisions"] = kept
    return data


def revision_text_from(data: object) -> str:
    """The text of ``GET task.md/revisions/:version``'s answer."""
    return Fields(data, "the answer").text("content")


def with_texts(
    build: Callable[[object], T], known: KnownTexts, fetch: Fetch
) -> Callable[[object], T]:
    """``build`` of the answer once its revisions' texts are filled in."""
    return lambda data: build(fill_texts(data, known, fetch))
