"""Counts in words: "1 collection", "2 collections", never "1 collections"."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, plural unless exactly one ("1,024 notes")."""
    word = noun if count == 1 else (plural if plural is not None else f"{noun}s")
    return f"{count:,} {word}"


def sentence(text: str) -> str:
    """``text`` as a sentence: its first letter a capital ("the Task changed" → "The …")."""
    return text[:1].upper() + text[1:]
