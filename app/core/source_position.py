"""Where in the Task's source a point of its rendered preview comes from."""

from __future__ import annotations

_WINDOWS = (24, 12, 6)  # characters either side of the click, longest first


def source_position(source: str, block_text: str, offset: int) -> int | None:
    """The source index for ``offset`` in ``block_text`` (a rendered paragraph, heading or
    list item), or None when nothing of it is found.

    Plain text maps to the exact character: the longest run around the click that occurs in
    the source places it. Where markup splits the text (bold, links), a shorter run does;
    failing that, the start of the block's first words.
    """
    offset = max(0, min(offset, len(block_text)))
    for size in _WINDOWS:
        start, end = max(0, offset - size), min(len(block_text), offset + size)
        for left, right in ((start, end), (offset, end), (start, offset)):
            piece = block_text[left:right]
            if len(piece.strip()) < 5:  # shorter runs match anywhere
                continue
            found = source.find(piece)
            if found >= 0:
                return found + (offset - left)
    head = block_text.strip()[:12]
    if len(head) >= 5 and (found := source.find(head)) >= 0:
        return found
    return None
