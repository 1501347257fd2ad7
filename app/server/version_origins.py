"""Which proposal or change set made each version of a Task: the fields its answer carries."""

from __future__ import annotations

from typing import Any

from app.server.org_log import Executes

Origins = dict[int, dict[str, Any]]
"""version → the EXTENSION fields of that version's answer: ``proposal: {id, author_name}``
and/or ``change_set: {id, title}`` (a version neither made has no entry)."""


def version_origins(conn: Executes, agent_id: str) -> Origins:
    """Each version of the agent's Task that a proposal or a change set made, in one read."""
    rows = conn.execute(
        "SELECT version, proposal_id, proposal_author_name, change_set_id, change_set_title"
        " FROM version_origins WHERE agent_id = ?",
        (agent_id,),
    )
    found: Origins = {}
    for version, proposal_id, author, change_set_id, title in rows:
        fields: dict[str, Any] = {}
        if proposal_id is not None:
            fields["proposal"] = {"id": proposal_id, "author_name": author or ""}
        if change_set_id is not None:
            fields["change_set"] = {"id": change_set_id, "title": title}
        if fields:
            found[int(version)] = fields
    return found
