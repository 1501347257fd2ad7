"""Preview HTML as top-level blocks, and which blocks an update changes (pure strings, no Qt).

The preview document is filled one top-level block at a time and each later preview
replaces only the blocks that changed (``widgets.preview``); this module finds the blocks and
the changed range.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

PatchRange = tuple[int, int, int]
"""``(first, old_stop, new_stop)``: blocks ``old[first:old_stop]`` become
``new[first:new_stop]``."""

_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)\b[^>]*?(/?)>")
_VOID_TAGS = frozenset({"br", "hr", "img", "input", "meta", "link", "col", "area", "wbr"})
_BLOCK_TAGS = frozenset(
    {"p", "div", "table", "ul", "ol", "dl", "pre", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6"}
)


def split_top_level_html(html: str, chunk_chars: int = 0) -> list[str]:
    """``html`` cut only after a top-level block closes, into pieces of at least
    ``chunk_chars`` (0: every top-level block is a piece). Joined, they give ``html``."""
    pieces: list[str] = []
    depth = 0
    last = 0
    for tag in _TAG.finditer(html):
        closing, name, self_closing = tag.group(1), tag.group(2).lower(), tag.group(3)
        if name in _VOID_TAGS or self_closing:
            continue
        if not closing:
            depth += 1
            continue
        depth = max(depth - 1, 0)
        if depth == 0 and name in _BLOCK_TAGS and tag.end() - last >= chunk_chars:
            pieces.append(html[last : tag.end()])
            last = tag.end()
    if last < len(html):
        pieces.append(html[last:])
    return pieces


def patch_range(old: Sequence[str], new: Sequence[str]) -> PatchRange | None:
    """The pieces that differ between ``old`` and ``new``, between a common head and tail.

    None when the first piece changes (nothing to anchor on) or nothing changes at all.
    """
    first = 0
    limit = min(len(old), len(new))
    while first < limit and old[first] == new[first]:
        first += 1
    if first == len(old) == len(new):
        return None
    same_tail = 0
    while (
        same_tail < len(old) - first
        and same_tail < len(new) - first
        and old[-1 - same_tail] == new[-1 - same_tail]
    ):
        same_tail += 1
    if first == 0:
        return None
    return first, len(old) - same_tail, len(new) - same_tail


def changed_chars(old: Sequence[str], new: Sequence[str], span: PatchRange) -> int:
    """Characters of HTML a patch over ``span`` removes and inserts."""
    first, old_stop, new_stop = span
    return sum(map(len, old[first:old_stop])) + sum(map(len, new[first:new_stop]))


@dataclass(frozen=True, slots=True)
class Patch:
    """Turn the shown blocks into the new ones in place; ``span`` None: nothing changed."""

    span: PatchRange | None


def plan_patch(
    old: Sequence[str] | None, new: Sequence[str], *, max_changed_chars: int | None = None
) -> Patch | None:
    """How the shown blocks ``old`` become ``new`` in place, or None to build afresh: when
    nothing is shown, the first block changed, or more than ``max_changed_chars`` change."""
    if old is None:
        return None
    if old == new:
        return Patch(None)
    span = patch_range(old, new)
    if span is None:
        return None
    if max_changed_chars is not None and changed_chars(old, new, span) > max_changed_chars:
        return None
    return Patch(span)
