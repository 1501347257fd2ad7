"""Taking tokens out of text that may be logged or shown: only tokens long enough to be one.

A token shorter than ``SCRUB_MIN_CHARS`` is left alone: replacing every "t" in a message
because someone's token is "t" mangles the message ("could no••• be read") and protects
nothing, since a token that short can't be told apart from ordinary words.
"""

from __future__ import annotations

from collections.abc import Iterable

SCRUB_MIN_CHARS = 8
"""The shortest token that is scrubbed; the local workspace's tokens are 43 characters."""

REDACTED = "•••"


def scrub_tokens(text: str, tokens: Iterable[str], replacement: str = REDACTED) -> str:
    """``text`` with every token of at least ``SCRUB_MIN_CHARS`` characters replaced."""
    # Longest first, so a token that contains another is replaced whole.
    for token in sorted({t for t in tokens if len(t) >= SCRUB_MIN_CHARS}, key=len, reverse=True):
        text = text.replace(token, replacement)
    return text
