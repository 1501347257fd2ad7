"""Incremental Markdown: top-level blocks rendered and sanitised once, then cached by text."""

from __future__ import annotations

import html
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from markdown_it import MarkdownIt
from markdown_it.token import Token

from app.render.block_split import BlockSplitter
from app.render.commonmark import (
    new_block_parser,
    new_markdown,
    top_level_groups,
    top_level_spans,
)
from app.render.sanitise import sanitise_html

# A line end right before a block tag is no text (code is escaped, so no tag stands in it),
# but QTextDocument gives each one a node: a table's cells laid out with them take 3x longer.
_LINE_END_BEFORE_BLOCK_TAG = re.compile(
    r">\n+(?=</?(?:p|ul|ol|li|table|thead|tbody|tr|th|td|blockquote|pre|hr|h[1-6]|div)\b)"
)

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


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


@dataclass(frozen=True, slots=True)
class Definitions:
    """A text's link reference definitions, which apply to every block of it; ``key`` says
    them in a string, for the cache key of a block that may use one."""

    references: dict[str, Any] = field(default_factory=dict)
    key: str = ""


NO_DEFINITIONS = Definitions()


def escaped_pre(text: str) -> str:
    """Text shown as written, for when Markdown cannot render it."""
    return f"<pre>{html.escape(text, quote=False)}</pre>"


def compact_html(html: str) -> str:
    """``html`` without the line ends that stand only between block tags."""
    return _LINE_END_BEFORE_BLOCK_TAG.sub(">", html)


class MarkdownBlocks:
    """Renders Markdown block by block, each block's sanitised HTML cached by its text.

    Blocks are CommonMark's top-level blocks (``BlockSplitter``): a list with its loose
    items and continuation paragraphs, a fenced code block with its blank lines, a quote
    with its lazy lines are each one block, and each renders alone as it does in place.
    Thread-safe: each thread gets its own renderer, the caches and the splitter lock.
    """

    def __init__(self, max_blocks: int = 8192, *, one_parse: bool = True) -> None:
        self._cache: LruCache[tuple[str, str], str] = LruCache(max_blocks)
        self._references: LruCache[str, dict[str, Any]] = LruCache(1024)
        self._splitter = BlockSplitter()
        self._local = threading.local()
        # A text parsed whole (the first preview of a Task) is parsed once, by the renderer,
        # and its blocks rendered from that parse, not split by the block parser and then
        # each parsed again (a quarter of a cold render). False: the two-parse way, which
        # tests compare it with.
        self._one_parse = one_parse

    def _markdown(self) -> MarkdownIt:
        md: MarkdownIt | None = getattr(self._local, "md", None)
        if md is None:
            md = self._local.md = new_markdown()
        return md

    def _parser(self) -> MarkdownIt:
        parser: MarkdownIt | None = getattr(self._local, "parser", None)
        if parser is None:
            parser = self._local.parser = new_block_parser()
        return parser

    def split(self, text: str, *, unless: str = "") -> tuple[list[str], Definitions]:
        """The text's top-level blocks, and its reference definitions. A text parsed whole
        has its blocks rendered (into the cache) from that one parse, except the blocks
        holding ``unless`` (a caller that renders those from another text)."""
        parsed: list[tuple[list[Token], dict[str, Any]]] = []

        def parse_whole(whole: str) -> list[range]:
            env: dict[str, Any] = {}
            try:
                tokens = self._markdown().parse(whole, env)
            except Exception:  # shown block by block, as written where it must be
                return top_level_spans(self._parser(), whole)
            parsed.append((tokens, env))
            return [span for span, _ in top_level_groups(tokens)]

        blocks, carriers = self._splitter.split_with_gaps(
            text, parse_whole if self._one_parse else None
        )
        definitions = self._definitions(carriers)
        if parsed:
            self._render_parsed(blocks, definitions, *parsed[0], unless=unless)
        return blocks, definitions

    def _definitions(self, carriers: list[str]) -> Definitions:
        if not carriers:
            return NO_DEFINITIONS
        # A definition applies to the whole text, wherever it stands (also inside a quote
        # or a list); the first of a label wins, as in a whole-text render.
        references: dict[str, Any] = {}
        for chunk in carriers:
            for label, target in self._chunk_references(chunk).items():
                references.setdefault(label, target)
        if not references:
            return NO_DEFINITIONS
        return Definitions(references, json.dumps(references, sort_keys=True))

    def _render_parsed(
        self,
        blocks: list[str],
        definitions: Definitions,
        tokens: list[Token],
        env: dict[str, Any],
        *,
        unless: str,
    ) -> None:
        """Cache each block's HTML from the whole text's tokens: what ``render_block`` would
        make of it alone (CommonMark's top-level blocks render alone as in place)."""
        groups = top_level_groups(tokens)
        if len(groups) != len(blocks) or env.get("references", {}) != definitions.references:
            return  # not the blocks kept, or not the definitions: each is rendered alone
        md = self._markdown()
        deepest = md.options.maxNesting - 1
        for block, (_, group) in zip(blocks, groups, strict=True):
            used = definitions if definitions.references and "[" in block else NO_DEFINITIONS
            key = (block, used.key)
            if (unless and unless in block) or self._cache.get(key) is not None:
                continue
            if any(token.level >= deepest for token in group):
                continue  # past the nesting limit: render_block shows it as written
            try:
                rendered = md.renderer.render(group, md.options, env)
            except Exception:  # render_block shows a malformed block as written
                continue
            self._cache.put(key, compact_html(sanitise_html(rendered)).strip("\n"))

    def _chunk_references(self, chunk: str) -> dict[str, Any]:
        found = self._references.get(chunk)
        if found is None:
            env: dict[str, Any] = {}
            self._parser().parse(chunk, env)
            found = dict(env.get("references", {}))
            self._references.put(chunk, found)
        return found

    def render_block(self, block: str, definitions: Definitions = NO_DEFINITIONS) -> str:
        """One block's sanitised HTML; ``definitions`` as from ``split``."""
        used = definitions if definitions.references and "[" in block else NO_DEFINITIONS
        key = (block, used.key)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        rendered = self._render(block, used)
        result = compact_html(sanitise_html(rendered)).strip("\n")
        self._cache.put(key, result)
        return result

    def _render(self, block: str, definitions: Definitions) -> str:
        md = self._markdown()
        try:
            env = {"references": dict(definitions.references)}
            tokens = md.parse(block, env)
            if any(token.level >= md.options.maxNesting - 1 for token in tokens):
                # Past the nesting limit markdown-it drops the rest of the block unseen.
                return escaped_pre(block)
            return md.renderer.render(tokens, md.options, env)
        except Exception:  # a malformed block is shown as written, never raised
            return escaped_pre(block)

    def render_blocks(self, text: str) -> list[str]:
        blocks, definitions = self.split(text)
        return [self.render_block(block, definitions) for block in blocks]

    def render(self, text: str) -> str:
        """Sanitised HTML of the whole text."""
        return "\n".join(part for part in self.render_blocks(text) if part)

    def clear(self) -> None:
        self._cache.clear()
        self._references.clear()
