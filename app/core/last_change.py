"""Who made the live version of a Task, and when: from the server, or else from its revisions."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.models import TaskDoc


@dataclass(frozen=True, slots=True)
class LastChange:
    """``from_revisions``: the server names nobody for the live version, so this is read from
    the newest revision (whoever replaced v3 made v4)."""

    by: str | None
    when: str | None
    from_revisions: bool = False


def last_change(doc: TaskDoc) -> LastChange:
    """The live version's author and time; the spec's GET gives only the revisions' ones."""
    if doc.updated_by_name and doc.updated_at:
        return LastChange(doc.updated_by_name, doc.updated_at)
    newest = max(doc.revisions, key=lambda r: r.version, default=None)
    # Only the version right before the live one tells who made it: an empty text is never
    # archived, so an older newest revision may be followed by saves nobody recorded.
    if newest is None or newest.version != doc.version - 1:
        return LastChange(doc.updated_by_name, doc.updated_at)
    by = doc.updated_by_name or newest.replaced_by_name
    when = doc.updated_at or newest.replaced_at
    return LastChange(by, when, from_revisions=by is not None and not doc.updated_by_name)
