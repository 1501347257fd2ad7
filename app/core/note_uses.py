"""What the server says of a note's blast radius: who uses it, and what an edit does to them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from app.core.expander import CollectionPiece, Expansion, MarkerPiece, NotePiece, Piece, RepeatPiece
from app.core.models import BrokenEmbed, OrgFile

_STRENGTH = {"marker": 0, "collection": 1, "repeat": 2, "inline": 3}
"""A run's outcomes for an embed, weakest first: a key met twice keeps the stronger."""

Outcomes = dict[tuple[str, int, str], str]
"""(embedded path, hop, display path of the file holding the embed) → what the run made of
it: ``inline``, ``repeat`` (its title), ``collection`` (its name) or ``marker``."""


def uses_of(expansion: Expansion, task_path: str) -> Outcomes:
    """Every embed the expansion met, as (path, hop, via) → its strongest outcome."""
    found: Outcomes = {}
    _walk(expansion.pieces, task_path, found)
    return found


def _walk(pieces: Iterable[Piece], holder: str, found: Outcomes) -> None:
    for piece in pieces:
        if isinstance(piece, NotePiece):
            _keep(found, (piece.path, piece.hop, holder), "inline")
            _walk(piece.body, piece.path, found)
        elif isinstance(piece, RepeatPiece):
            _keep(found, (piece.path, piece.hop, holder), "repeat")
        elif isinstance(piece, CollectionPiece):
            _keep(found, (piece.path, piece.hop, holder), "collection")
        elif isinstance(piece, MarkerPiece):
            _keep(found, (piece.path, piece.hop, piece.in_path), "marker")


def _keep(found: Outcomes, key: tuple[str, int, str], outcome: str) -> None:
    if _STRENGTH[outcome] > _STRENGTH[found.get(key, "marker")] or key not in found:
        found[key] = outcome


@dataclass(frozen=True, slots=True)
class NoteUse:
    """One agent's run meeting an embed of the note: at ``hop``, in the file ``via``;
    ``reaches`` False where the run gets the marker instead."""

    agent_id: str
    name: str
    guild_id: str
    hop: int
    via: str
    reaches: bool


def uses_in(
    agent_id: str, name: str, guild_id: str, expansion: Expansion, task_path: str, path: str
) -> list[NoteUse]:
    """The agent's rows of the used-by answer for ``path``, read off its run's expansion
    (what a client works out itself where the server has no used-by)."""
    return [
        NoteUse(agent_id, name, guild_id, hop, via, outcome != "marker")
        for (embedded, hop, via), outcome in sorted(uses_of(expansion, task_path).items())
        if embedded == path
    ]


@dataclass(frozen=True, slots=True)
class NoteImpact:
    """What one agent's run would get if the note held the edited text."""

    agent_id: str
    name: str
    hop: int
    bytes_before: int
    bytes_after: int
    over_before: bool
    over_after: bool
    broken_before: tuple[BrokenEmbed, ...]
    broken_after: tuple[BrokenEmbed, ...]
    prompt_changes: bool

    @property
    def goes_over(self) -> bool:
        """Within the 64 KB budget now, over it with the edit."""
        return self.over_after and not self.over_before

    @property
    def gains_marker(self) -> bool:
        """The edit makes the run meet an embed it can't reach that it didn't meet before."""
        return bool(set(self.broken_after) - set(self.broken_before))


@dataclass(frozen=True, slots=True)
class UsedBy:
    """The used-by answer, with the sentence that sums it up."""

    display_path: str
    uses: tuple[NoteUse, ...]

    @property
    def agent_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(u.agent_id for u in self.uses))

    def to_json(self) -> list[dict[str, object]]:
        """The contract's ``agents`` list."""
        return [
            {
                "id": u.agent_id,
                "name": u.name,
                "guild_id": u.guild_id,
                "hop": u.hop,
                "via": u.via,
                "reaches": u.reaches,
            }
            for u in self.uses
        ]

    def summary(self) -> str:
        """ "Used by 37 agents (31 at hop 1, 6 at hop 2; 2 get the marker)"."""
        agents = self.agent_ids
        if not agents:
            return "Used by no agent"
        lowest: dict[str, int] = {}
        for use in self.uses:
            lowest[use.agent_id] = min(lowest.get(use.agent_id, use.hop), use.hop)
        at_1 = sum(1 for hop in lowest.values() if hop == 1)
        at_2 = len(lowest) - at_1
        reached = {u.agent_id for u in self.uses if u.reaches}
        marked = len(agents) - len(reached)
        noun = "agent" if len(agents) == 1 else "agents"
        parts = f"{at_1} at hop 1, {at_2} at hop 2"
        gets = "gets" if marked == 1 else "get"
        return f"Used by {len(agents)} {noun} ({parts}; {marked} {gets} the marker)"


@dataclass(frozen=True, slots=True)
class NoteRevision:
    """An earlier text of a note (newest first in ``NoteDoc.revisions``)."""

    version: int
    text: str
    replaced_at: str
    replaced_by_name: str | None


@dataclass(frozen=True, slots=True)
class NoteDoc:
    """A note as its editor needs it: the file and its earlier texts."""

    file: OrgFile
    revisions: tuple[NoteRevision, ...] = ()

    @property
    def version(self) -> int:
        return self.file.version

    @property
    def text(self) -> str:
        return self.file.text or ""
