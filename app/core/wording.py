"""Counts in words: "1 collection", "2 collections", never "1 collections"."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, plural unless exactly one ("1,024 notes")."""
    word = noun if count == 1 else (plural if plural is not None else f"{noun}s")
    return f"{count:,} {word}"


def sentence(text: str) -> str:
    """``text`` as a sentence: its first letter a capital ("the Task changed" → "The …")."""
    return text[:1].upper() + text[1:]


def format_kb(size: int) -> str:
    """Bytes as the meters and summaries word them: ``12.4 KB``, ``256 KB`` (1 KB = 1,024)."""
    kb = size / 1024
    return f"{kb:.0f} KB" if kb == int(kb) else f"{kb:.1f} KB"
