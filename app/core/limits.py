"""The product's fixed limits, all counted in UTF-8 bytes."""

TASK_MAX_BYTES = 262_144
"""A Task is at most 256 KiB of UTF-8."""

NOTE_MAX_BYTES = 262_144
"""A note's text in a workspace file is at most 256 KiB of UTF-8, like a Task: no run can
inline more than the embed budget of it anyway, and a bigger one only costs memory."""

WORKSPACE_MAX_BYTES = 64 * 1024 * 1024
"""A workspace file is read only up to 64 MiB: over twice a 5,000-agent, 50,000-note org
(bench/scale_workspace.py writes 27.5 MB), while parsing one peaks near ten times its size
in memory (a 200 MB file took 2.27 GB)."""

EMBED_BUDGET_BYTES = 65_536
"""Inlined note text per run, each note counted once."""

MAX_REVISIONS = 50
"""Earlier versions of a Task kept on the server."""

JSON_ESCAPE_FACTOR = 6
"""The most bytes JSON may spend on one byte of text: a control character is written ``\\u00XX``."""

RECORD_FIELDS_MAX_BYTES = 65_536
"""Room for a Task's or a revision's other fields (times, names, ids, a server's own)."""

TASK_ANSWER_MAX_BYTES = (MAX_REVISIONS + 1) * (
    JSON_ESCAPE_FACTOR * TASK_MAX_BYTES + RECORD_FIELDS_MAX_BYTES
)
"""The largest Task answer a server may legally send: the live text and 50 revisions, each
256 KB of control characters escaped to six bytes (83,558,400 bytes, about 80 MB)."""

EMBED_DEPTH = 2
"""The Task's embeds (hop 1) and the embeds of the notes they inline (hop 2)."""

MARKER_MESSAGE = "This file is not reachable."


def utf8_len(text: str) -> int:
    """The size of ``text`` as the limits count it."""
    return len(text.encode("utf-8"))
