"""A Task's earlier texts read once: answers without them (EXTENSION ``?revisions=summary``),
filled from the texts the client already holds, and each one it lacks fetched on its own.

An earlier version's text never changes, and the text a save archives is the live text the
client last read, so after the first read a save's or a re-read's answer needs no earlier
text at all: 50 kept revisions of a 256 KB Task are up to 80 MB on the wire each time.
A server that ignores the query sends the texts anyway; one without the one-revision route
answers 404 ``not found`` and the Task is read whole instead (``HistoryIncompleteError``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from app.core.model_json import Fields
from app.core.models import TaskDoc

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


def fill_texts(data: object, known: Mapping[int, str], fetch: Fetch) -> object:
    """The decoded Task answer with each revision's text put back: from ``known``, else
    ``fetch(version)``. Anything odd in the answer is left for the parser to name."""
    if not isinstance(data, dict):
        return data
    revisions = data.get("revisions")
    if not isinstance(revisions, list):
        return data
    kept = []
    for revision in revisions:
        if isinstance(revision, dict) and "content" not in revision:
            version = revision.get("version")
            if type(version) is int:
                text = known[version] if version in known else fetch(version)
                if text is None:
                    continue
                revision["content"] = text
        kept.append(revision)
    data["revisions"] = kept
    return data


def revision_text_from(data: object) -> str:
    """The text of ``GET task.md/revisions/:version``'s answer."""
    return Fields(data, "the answer").text("content")


def with_texts(
    build: Callable[[object], T], known: Mapping[int, str], fetch: Fetch
) -> Callable[[object], T]:
    """``build`` of the answer once its revisions' texts are filled in."""
    return lambda data: build(fill_texts(data, known, fetch))
