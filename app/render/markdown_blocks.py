"""Incremental Markdown: top-level blocks rendered and sanitised once, then cached by text."""

from __future__ import annotations

import html
import re
import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

import markdown
from markdown.blockprocessors import ReferenceProcessor
from markdown.extensions.fenced_code import FencedCodeExtension
from markdown.extensions.sane_lists import SaneListExtension
from markdown.extensions.tables import TableExtension

from app.render.sanitise import sanitise_html

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_FENCE_OPEN = re.compile(r"(~{3,}|`{3,})")
_LIST_ITEM = re.compile(r" {0,3}(?:[*+-]|\d+\.)[ \t]")
_QUOTE = re.compile(r" {0,3}>")
# Python-Markdown's own pattern, so the definitions found are the ones it would honour.
_REFERENCE = re.compile(ReferenceProcessor.RE.pattern, re.MULTILINE)


class LruCache(Generic[K, V]):
    """A small thread-safe least-recently-used map with a fixed number of entries."""

    def __init__(self, max_entries: int) -> None:
        self._max = max_entries
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._max:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


def _closing_fence(lines: list[str], start: int, fence: str) -> int | None:
    """Index of the line closing the fence opened at ``start``, as fenced_code matches it."""
    for index in range(start + 1, len(lines)):
        line = lines[index]
        if line.startswith(fence) and not line[len(fence) :].strip(" "):
            return index
    return None


def _continues_block(current: list[str], next_line: str) -> bool:
    """After a blank line, does ``next_line`` still belong to the block before it?

    Indented lines continue a list item or an indented code block; a list item continues
    a list (a loose list renders as one list, not two); Python-Markdown joins a quote to a
    quote just before it.
    """
    if next_line.startswith(("    ", "\t")):
        return True
    if _QUOTE.match(next_line):
        return bool(_QUOTE.match(current[0]) or _QUOTE.match(current[-1]))
    return bool(_LIST_ITEM.match(next_line)) and bool(_LIST_ITEM.match(current[0]))


def split_blocks(text: str) -> list[str]:
    """Split Markdown at blank lines into blocks that render the same alone as together:
    fenced code blocks and lists stay whole. Blank lines between blocks are dropped."""
    lines = text.split("\n")
    blocks: list[str] = []
    current: list[str] = []
    index = 0
    count = len(lines)
    while index < count:
        line = lines[index]
        fence = _FENCE_OPEN.match(line)
        if fence:
            end = _closing_fence(lines, index, fence.group(1))
            if end is not None:
                current.extend(lines[index : end + 1])
                index = end + 1
                continue
        if line.strip():
            current.append(line)
            index += 1
            continue
        after = index
        while after < count and not lines[after].strip():
            after += 1
        if current and (after == count or not _continues_block(current, lines[after])):
            blocks.append("\n".join(current))
            current = []
        elif current:
            current.extend(lines[index:after])
        index = after
    if current:
        blocks.append("\n".join(current))
    return blocks


def reference_definitions(text: str) -> str:
    """The text's reference-style link definitions, to render beside each block that may
    use one (a definition applies to the whole document, not only its own block)."""
    if "]:" not in text:
        return ""
    return "\n".join(match.group(0) for match in _REFERENCE.finditer(text))


def escaped_pre(text: str) -> str:
    """Text shown as written, for when Markdown cannot render it."""
    return f"<pre>{html.escape(text, quote=False)}</pre>"


class MarkdownBlocks:
    """Renders Markdown block by block, each block's sanitised HTML cached by its text.

    Thread-safe: each thread gets its own ``markdown.Markdown`` (it keeps state between
    calls), and the cache has a lock.
    """

    def __init__(self, max_blocks: int = 8192) -> None:
        self._cache: LruCache[tuple[str, str], str] = LruCache(max_blocks)
        self._local = threading.local()

    def _markdown(self) -> markdown.Markdown:
        md: markdown.Markdown | None = getattr(self._local, "md", None)
        if md is None:
            md = markdown.Markdown(
                extensions=[
                    TableExtension(use_align_attribute=True),  # align=, never style=
                    FencedCodeExtension(),
                    SaneListExtension(),
                ],
                output_format="html",
            )
            self._local.md = md
        return md

    def render_block(self, block: str, definitions: str = "") -> str:
        """One block's sanitised HTML; ``definitions`` as from ``reference_definitions``."""
        used = definitions if definitions and "[" in block else ""
        key = (block, used)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        source = f"{block}\n\n{used}" if used else block
        md = self._markdown()
        try:
            md.reset()
            rendered = md.convert(source)
        except Exception:  # a malformed block (deep nesting) is shown as written
            rendered = escaped_pre(block)
        result = sanitise_html(rendered)
        self._cache.put(key, result)
        return result

    def render_blocks(self, text: str) -> list[str]:
        definitions = reference_definitions(text)
        return [self.render_block(block, definitions) for block in split_blocks(text)]

    def render(self, text: str) -> str:
        """Sanitised HTML of the whole text."""
        return "\n".join(part for part in self.render_blocks(text) if part)

    def clear(self) -> None:
        self._cache.clear()
