"""What a run makes of each of the Task's own embeds, for the editor's highlighting."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from app.core.expander import CollectionPiece, MarkerPiece, NotePiece, Piece, RepeatPiece
from app.core.models import BrokenEmbed

EmbedVerdict = Literal["inlined", "collection", "unreachable", "repeat", "withheld"]
"""``withheld``: the agent reads the note, the viewer may not (``app.core.viewer_reach``)."""

_VERDICTS: dict[type, EmbedVerdict] = {
    NotePiece: "inlined",
    CollectionPiece: "collection",
    RepeatPiece: "repeat",
    MarkerPiece: "unreachable",
}


def embed_verdicts(pieces: Sequence[Piece]) -> dict[str, EmbedVerdict]:
    """The verdict on each embed among an expansion's top-level ``pieces``.

    A path embedded twice is inlined once and repeated after: the first verdict counts.
    """
    verdicts: dict[str, EmbedVerdict] = {}
    for piece in pieces:
        if isinstance(piece, NotePiece | CollectionPiece | RepeatPiece | MarkerPiece):
            verdicts.setdefault(piece.path, _VERDICTS[type(piece)])
    return verdicts


def server_verdicts(broken: Iterable[BrokenEmbed]) -> dict[str, EmbedVerdict]:
    """Verdicts from the server's embed status alone (no note text to expand with): the
    Task's own unreachable embeds are marked, everything else stays unmarked."""
    return {b.path: "unreachable" for b in broken if b.hop == 1}
