"""Notes the agent reads that the viewer can't: what the run gets is a fact about the agent.

A member's preview and References are worked out with the member's own reads: a note the
agent's guild may read but the member may not answers 404, and looks "missing". The server's
embed status is the agent's (it lists what the agent can't reach, and a Task's own embeds
are the Task's text, visible to every reader), so a Task embed that is a marker only for the
viewer, and not in the server's list, is one the agent reads: say so, never "missing".
"""

from __future__ import annotations

from collections.abc import Iterable

from app.core.expander import MarkerPiece, Piece
from app.core.marker_reasons import MarkerReason
from app.core.models import BrokenEmbed
from app.core.references import References

AGENT_READS_IT = "The agent reads this note; you can't see its text."
HIDDEN = MarkerReason("missing", "hidden_from_you", AGENT_READS_IT)
"""The reason References show for such an embed (code "missing" for the viewer's own reads,
narrowed by its ``detail``): the run inlines the note, the viewer may not read it."""


def hidden_from_viewer(
    marker_paths: Iterable[str],
    server_broken: Iterable[BrokenEmbed],
    *,
    viewer_reads_all: bool,
    status_known: bool,
) -> frozenset[str]:
    """The Task's own embeds that are markers for the viewer but reach their file for the
    agent. Nothing for an operator (they read every note) or before the embed status is in."""
    if viewer_reads_all or not status_known:
        return frozenset()
    unreachable = {b.path for b in server_broken if b.hop == 1}
    return frozenset(p for p in marker_paths if p not in unreachable)


def task_markers(pieces: Iterable[Piece]) -> list[str]:
    """The display paths of the Task's own embeds that the preview made markers."""
    return [p.path for p in pieces if isinstance(p, MarkerPiece)]


def with_agent_reads(references: References, hidden: frozenset[str]) -> References:
    """``references`` with each hidden Task embed explained as the agent's read."""
    if not hidden:
        return references
    items = tuple(
        r._replace(reason=HIDDEN)
        if r.hop == 1 and r.outcome == "marker" and r.path in hidden
        else r
        for r in references.items
    )
    return References(references.task_path, items, references.expansion)


def is_hidden(reason: MarkerReason | None) -> bool:
    return reason is not None and reason.detail == HIDDEN.detail
