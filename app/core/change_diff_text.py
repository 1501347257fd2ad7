"""A change's diff as the preview lists it: the changed lines with a few around them."""

from __future__ import annotations

from app.core.diff_model import build_diff, display_line, split_lines

CONTEXT = 2


def diff_lines(before: str, after: str, *, context: int = CONTEXT) -> list[tuple[str, str]]:
    """(mark, line) pairs: ``-`` removed, ``+`` added, `` `` around them, ``…`` a gap."""
    old, new = split_lines(before), split_lines(after)
    model = build_diff(before, after)
    out: list[tuple[str, str]] = []
    last_shown = -1
    for chunk in model.changes:
        start = max(chunk.old_start - context, last_shown + 1)
        if out and start > last_shown + 1:
            out.append(("…", ""))
        out += [(" ", display_line(old[i])) for i in range(start, chunk.old_start)]
        out += [("-", display_line(old[i])) for i in range(chunk.old_start, chunk.old_end)]
        out += [("+", display_line(new[i])) for i in range(chunk.new_start, chunk.new_end)]
        end = min(chunk.old_end + context, len(old))
        out += [(" ", display_line(old[i])) for i in range(chunk.old_end, end)]
        last_shown = end - 1
    return out
