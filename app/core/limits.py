"""The product's fixed limits, all counted in UTF-8 bytes."""

TASK_MAX_BYTES = 262_144
"""A Task is at most 256 KiB of UTF-8."""

EMBED_BUDGET_BYTES = 65_536
"""Inlined note text per run, each note counted once."""

MAX_REVISIONS = 50
"""Earlier versions of a Task kept on the server."""

EMBED_DEPTH = 2
"""The Task's embeds (hop 1) and the embeds of the notes they inline (hop 2)."""

MARKER_MESSAGE = "This file is not reachable."


def utf8_len(text: str) -> int:
    """The size of ``text`` as the limits count it."""
    return len(text.encode("utf-8"))
