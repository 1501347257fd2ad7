"""Decodes a big JSON answer one list item at a time, so no single call holds the GIL long."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection

_SPACE = re.compile(r"[ \t\n\r]*")
# The decoder's scanner: one JSON value from a position (the C one where Python has it).
_scan: Callable[[str, int], tuple[object, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
_MIN_BYTES = 256 * 1024
"""Smaller answers are decoded whole: one call is short enough."""


def decode_in_pieces(
    body: bytes, list_keys: Collection[str], *, whole_below: int = _MIN_BYTES
) -> object:
    """What ``json.loads(body)`` gives; when ``body`` is an object, its members named in
    ``list_keys`` that are lists are decoded item by item.

    One call decoding a 50,000-note answer (8.7 MB) held the GIL for 190-340 ms: every
    Python slot of the window (painting the sidebar, a key typed) waited that long. Between
    items here other threads get their turn. Raises ``ValueError`` (``json.JSONDecodeError``
    or ``UnicodeDecodeError``) for what is not JSON.
    """
    text = body.decode("utf-8")
    if len(body) < whole_below:
        return json.loads(text)
    end = len(text)
    pos = _SPACE.match(text, 0).end()  # type: ignore[union-attr]  # always matches
    if pos >= end or text[pos] != "{":
        return json.loads(text)
    found: dict[str, object] = {}
    pos = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
    if pos < end and text[pos] == "}":
        return _only_space_after(text, pos + 1, found)
    while True:
        key, pos = _value(text, pos)
        if not isinstance(key, str):
            raise json.JSONDecodeError("Expecting a property name", text, pos)
        pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
        if pos >= end or text[pos] != ":":
            raise json.JSONDecodeError("Expecting ':' delimiter", text, pos)
        pos = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
        if key in list_keys and pos < end and text[pos] == "[":
            found[key], pos = _items(text, pos + 1)
        else:
            found[key], pos = _value(text, pos)
        pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
        if pos < end and text[pos] == ",":
            pos = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
            continue
        if pos < end and text[pos] == "}":
            return _only_space_after(text, pos + 1, found)
        raise json.JSONDecodeError("Expecting ',' delimiter", text, pos)


def _items(text: str, pos: int) -> tuple[list[object], int]:
    """The list's items from just after its ``[``; the position after its ``]``."""
    items: list[object] = []
    end = len(text)
    pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
    if pos < end and text[pos] == "]":
        return items, pos + 1
    while True:
        item, pos = _value(text, pos)
        items.append(item)
        pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
        if pos < end and text[pos] == ",":
            pos = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
            continue
        if pos < end and text[pos] == "]":
            return items, pos + 1
        raise json.JSONDecodeError("Expecting ',' delimiter", text, pos)


def _value(text: str, pos: int) -> tuple[object, int]:
    try:
        value, after = _scan(text, pos)
    except StopIteration as exc:
        raise json.JSONDecodeError("Expecting value", text, exc.value) from None
    return value, after


def _only_space_after(text: str, pos: int, found: dict[str, object]) -> object:
    pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
    if pos != len(text):
        raise json.JSONDecodeError("Extra data", text, pos)
    return found
