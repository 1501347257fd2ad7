"""What publishing a proposal changes for the agent: its expanded Task, budget, embeds, shape."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.expander import Lookup, expand_embeds
from app.core.limits import EMBED_BUDGET_BYTES
from app.core.models import Reader
from app.core.task_shape import check_task_shape


@dataclass(frozen=True, slots=True)
class EffectiveChange:
    """The expanded Task before (live) and after (the result), and the deltas that matter."""

    before: str
    after: str
    bytes_before: int
    bytes_after: int
    over_budget_before: bool
    over_budget_after: bool
    newly_unreachable: tuple[str, ...]  # embeds that get the marker after and didn't before
    no_longer_unreachable: tuple[str, ...]
    shape_advice: tuple[str, ...] | None  # the shape check's findings; None: not checked

    @property
    def budget_line(self) -> str:
        """ "Embedded notes: 12,345 → 13,000 bytes of 65,536 (over budget)"."""
        over = " (over budget)" if self.over_budget_after else ""
        return (
            f"Embedded notes: {self.bytes_before:,} → {self.bytes_after:,} bytes of "
            f"{EMBED_BUDGET_BYTES:,}{over}"
        )


def effective_change(
    live: str,
    result: str,
    *,
    org_id: str,
    reader: Reader,
    lookup: Lookup,
    task_path: str,
    with_shape: bool = True,
) -> EffectiveChange:
    """Both texts expanded as the agent's run would get them (``lookup`` finds the notes).

    ``with_shape=False`` leaves the shape check out (it reads the whole text's outline: on
    256 KB it takes longer than the rest together); ``shape_advice`` then is None."""
    before = expand_embeds(live, org_id=org_id, reader=reader, lookup=lookup, task_path=task_path)
    after = (  # nothing decided yet, or all rejected: the same text, expanded once
        before
        if result == live
        else expand_embeds(result, org_id=org_id, reader=reader, lookup=lookup, task_path=task_path)
    )
    broken_before = {b.path for b in before.broken}
    broken_after = {b.path for b in after.broken}
    return EffectiveChange(
        before=before.text,
        after=after.text,
        bytes_before=before.embedded_bytes,
        bytes_after=after.embedded_bytes,
        over_budget_before=before.over_budget,
        over_budget_after=after.over_budget,
        newly_unreachable=tuple(sorted(broken_after - broken_before)),
        no_longer_unreachable=tuple(sorted(broken_before - broken_after)),
        shape_advice=check_task_shape(result).advice if with_shape else None,
    )
