"""The ways out of a merge conflict, apart from the merge itself (the banner needs no more)."""

from __future__ import annotations

import enum


class Resolution(enum.Enum):
    """The ways out of a conflict besides editing it by hand."""

    MINE = "take mine"
    THEIRS = "take theirs"
    MINE_THEN_THEIRS = "take both, mine first"
    THEIRS_THEN_MINE = "take both, theirs first"
