"""Which unreachable embeds to show while the Task is edited, and which are not saved yet."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from app.core.models import BrokenEmbed


@dataclass(frozen=True, slots=True)
class ShownBroken:
    """The embeds to name: ``unsaved`` holds the paths unreachable only in the edited text."""

    broken: tuple[BrokenEmbed, ...]
    unsaved: frozenset[str] = frozenset()


def broken_to_show(
    live: Sequence[BrokenEmbed],
    edited: Sequence[BrokenEmbed] | None,
    unknown: Collection[str] = (),
) -> ShownBroken:
    """The server's list for the live Task (``live``) while the text is the live one
    (``edited`` None); else the edited text's own expansion, as the agent. ``unknown``: the
    embeds that expansion could not check, which are not called unreachable."""
    if edited is None:
        return ShownBroken(tuple(live))
    kept = tuple(b for b in edited if b.path not in unknown)
    live_paths = {b.path for b in live}
    return ShownBroken(kept, frozenset(b.path for b in kept if b.path not in live_paths))
