"""Tasks with their earlier versions, built for tests the way the server would send them."""

from __future__ import annotations

import dataclasses

from app.core.models import Revision, TaskDoc

ORG = "o_acme"


_FROM_REVISIONS = object()  # who changed it last: what replaced the newest earlier version


def task_doc(
    agent_id: str,
    content: str,
    version: int,
    *revisions: Revision,
    etag: str | None = None,
    updated_at: object = _FROM_REVISIONS,
    updated_by_name: object = _FROM_REVISIONS,
) -> TaskDoc:
    """The agent's live Task at ``version``, with its earlier versions newest first: the one
    way the tests build a Task.

    Who changed it last, and when, is what replaced the newest earlier version (none: v1),
    unless ``updated_at`` / ``updated_by_name`` say otherwise (None: the server didn't say).
    """
    newest = revisions[0] if revisions else None
    at = (newest.replaced_at if newest else None) if updated_at is _FROM_REVISIONS else updated_at
    by = (
        (newest.replaced_by_name if newest else None)
        if updated_by_name is _FROM_REVISIONS
        else updated_by_name
    )
    assert at is None or isinstance(at, str)
    assert by is None or isinstance(by, str)
    return TaskDoc(
        agent_id=agent_id,
        path="task.md",
        display_path=f"org/{ORG}/agents/{agent_id}/task.md",
        content=content,
        version=version,
        revisions=revisions,
        updated_at=at,
        updated_by_name=by,
        etag=etag,
    )


def saved_over(doc: TaskDoc, content: str, at: str, by: str) -> TaskDoc:
    """``doc`` after ``by`` saved ``content`` over it at ``at``: one version on."""
    return dataclasses.replace(
        doc,
        content=content,
        version=doc.version + 1,
        revisions=(Revision(doc.version, doc.content, at, by), *doc.revisions),
        updated_at=at,
        updated_by_name=by,
        etag=None,
    )
