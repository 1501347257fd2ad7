"""Restore by change: one changed block of a compare taken back into the operator's text."""

from __future__ import annotations

from app.core.cancel import NEVER, CancelToken
from app.core.diff_model import Chunk, split_lines
from app.core.merge import merge_texts


def with_old_block(old: str, new: str, chunk: Chunk) -> str:
    """``new`` with the lines of ``chunk`` as ``old`` has them: that one change undone."""
    old_lines, new_lines = split_lines(old), split_lines(new)
    block = old_lines[chunk.old_start : chunk.old_end]
    before, after = new_lines[: chunk.new_start], new_lines[chunk.new_end :]
    if block and after and not block[-1].endswith("\n"):
        block = [*block[:-1], block[-1] + "\n"]  # it was old's last line; now a line follows
    return "".join(before) + "".join(block) + "".join(after)


def take_change(
    old: str, new: str, chunk: Chunk, text: str, *, cancel: CancelToken = NEVER
) -> str | None:
    """``text`` (the editor's, edited from ``new``) with change ``chunk`` of the compare
    ``old`` → ``new`` taken back from ``old``; None when ``text`` changed those lines too.

    The editor text usually is ``new`` itself (the live Task); when it holds unsaved edits the
    change goes in by a three-way merge, so those edits stay.
    """
    patched = with_old_block(old, new, chunk)
    if text == new:
        return patched
    result = merge_texts(new, patched, text, cancel=cancel)
    return result.text if result.is_clean else None
