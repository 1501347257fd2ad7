"""Named files: display paths written in text without ``![[…]]``, which a run gets as text.

A mention is ``org/<org_id>/…`` standing on its own (not glued to a word, a URL or another
path), up to the next space or a character no display path is written with (``[ ] < > " '
` |``), without the sentence punctuation that follows it (``.,;:!?*`` and an unmatched ``)``).
Between backticks the whole code span is the path, so a path with spaces can be named as
`` `org/o_acme/My notes.md` ``. Only well-formed display paths count (EXPANSION.md 2); the
text of an embed is never a mention.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from app.core.expander import is_display_path

_TRAILING = ".,;:!?*'\""


_PATH_CHARS = re.compile(r"[^\s\[\]<>\"'`|]+")
_GLUED = re.compile(r"[\w/.:\\-]")
"""A mention starts a path: it is not glued to a word, a slash, a dot, a colon (a URL) or a
hyphen before it, which would make it the tail of something else."""


def named_mentions(
    text: str, org_id: str, skip: list[tuple[int, int]]
) -> Iterator[tuple[int, int, str]]:
    """(start, end, path) of each mention in ``text``, in order, outside the ``skip`` spans.

    ``skip`` holds the (start, end) spans of the embeds in ``text``, in order.
    """
    head = f"org/{org_id}/"
    spans = iter(skip)
    span = next(spans, None)
    start = text.find(head)  # a plain find: most texts name no file, and it is fast
    while start >= 0:
        while span is not None and span[1] <= start:
            span = next(spans, None)
        found = None
        if span is not None and span[0] <= start:
            pass  # inside an embed: the embed is the reference
        elif not start or not _GLUED.match(text[start - 1]):
            found = _mention_at(text, start, span, org_id)
        if found is None:
            start = text.find(head, start + 1)
            continue
        yield start, found, text[start:found]
        start = text.find(head, found)


def _mention_at(text: str, start: int, span: tuple[int, int] | None, org_id: str) -> int | None:
    """Where the mention starting at ``start`` ends, or None when it is no display path."""
    end = _code_span_end(text, start, span) if start and text[start - 1] == "`" else None
    if end is None:
        match = _PATH_CHARS.match(text, start)
        end = _trim(text, start, match.end() if match else start)
    return end if is_display_path(text[start:end], org_id) else None


def _code_span_end(text: str, start: int, span: tuple[int, int] | None) -> int | None:
    """Where the backtick closing a code span that opens right before ``start`` stands."""
    line_end = text.find("\n", start)
    close = text.find("`", start, len(text) if line_end < 0 else line_end)
    if close < 0 or (span is not None and span[0] < close):
        return None
    if "[" in text[start:close] or "]" in text[start:close] or "\r" in text[start:close]:
        return None
    return close


def _trim(text: str, start: int, end: int) -> int:
    """Drop the sentence punctuation after a path, and a ``)`` closing a bracket around it."""
    while end > start:
        last = text[end - 1]
        unmatched = last == ")" and text.count("(", start, end) < text.count(")", start, end)
        if last not in _TRAILING and not unmatched:
            break
        end -= 1
    return end
