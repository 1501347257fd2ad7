"""The preview's HTML: the Task's Markdown with its embeds drawn as blocks and chips."""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Sequence
from functools import partial

from app.core.expander import (
    CollectionPiece,
    Expansion,
    MarkerPiece,
    NotePiece,
    Piece,
    RepeatPiece,
    TextPiece,
)
from app.render import embed_html
from app.render.markdown_blocks import LruCache, MarkdownBlocks

_TOKEN_PREFIX = "TDEMBED"
EmbedPiece = NotePiece | CollectionPiece | RepeatPiece | MarkerPiece


def _token_prefix(texts: Sequence[str]) -> str:
    """A placeholder prefix that occurs nowhere in the text, so no text is taken for an
    embed. Letters and digits only: Markdown passes them through untouched."""
    prefix = _TOKEN_PREFIX
    while any(prefix in text for text in texts):
        prefix += "X"
    return prefix


def render_plain(text: str) -> str:
    """Text shown exactly as written, wrapped, nothing interpreted."""
    return f'<pre style="white-space: pre-wrap;">{html.escape(text, quote=False)}</pre>'


def _renumber(token: re.Pattern[str], prefix: str, block: str) -> str:
    """The block with its tokens numbered from 0, its cache key."""
    counter = itertools.count()
    return token.sub(lambda _match: f"{prefix}{next(counter)}Z", block)


class PreviewRenderer:
    """Renders previews incrementally: Markdown blocks cached by text, inlined notes cached
    by their content. One instance serves a window; it is safe to use from a worker thread.
    """

    def __init__(self, max_blocks: int = 8192, max_notes: int = 1024) -> None:
        self.blocks = MarkdownBlocks(max_blocks)
        self._notes: LruCache[tuple[NotePiece, frozenset[str]], str] = LruCache(max_notes)

    def render_markdown(self, text: str) -> str:
        """Sanitised HTML of a note or any Markdown text, without embeds."""
        return self.blocks.render(text)

    def render_preview(
        self,
        expansion: Expansion,
        unchecked: frozenset[str] = frozenset(),
        withheld: frozenset[str] = frozenset(),
    ) -> str:
        """Sanitised HTML of an expanded Task: each embed drawn by kind (see embed_html).

        ``unchecked``: marker paths the app could not check (offline with nothing cached, or a
        server that shares no note text); they are drawn as "not checked", not as unreachable.
        ``withheld``: the Task's own marker paths that the agent reads and the viewer may not.
        """
        return self.render_pieces(expansion.pieces, unchecked, withheld)

    def clear(self) -> None:
        self.blocks.clear()
        self._notes.clear()

    def render_pieces(
        self,
        pieces: Sequence[Piece],
        unchecked: frozenset[str] = frozenset(),
        withheld: frozenset[str] = frozenset(),
    ) -> str:
        texts = [p.text for p in pieces if isinstance(p, TextPiece)]
        embeds: list[EmbedPiece] = [p for p in pieces if not isinstance(p, TextPiece)]
        if not embeds:
            return self.blocks.render("".join(texts))
        # Each embed becomes a placeholder token; Markdown and the sanitiser see only the
        # tokens, then the trusted embed HTML replaces them. Tokens are renumbered from 0
        # inside each block so a block's cache key does not depend on embeds before it.
        prefix = _token_prefix(texts)
        counter = itertools.count()
        source = "".join(
            p.text if isinstance(p, TextPiece) else f"{prefix}{next(counter)}Z" for p in pieces
        )
        token = re.compile(re.escape(prefix) + r"(\d+)Z")
        placed = re.compile(r"(<p>)?" + re.escape(prefix) + r"(\d+)Z(</p>)?")
        # Blocks with an embed render from their renumbered text: not from the whole parse.
        blocks, definitions = self.blocks.split(source, unless=prefix)
        out: list[str] = []
        for block in blocks:
            found = [embeds[int(m.group(1))] for m in token.finditer(block)]
            if not found:
                rendered = self.blocks.render_block(block, definitions)
                if rendered:  # a block of link definitions renders to nothing
                    out.append(rendered)
                continue
            keyed = _renumber(token, prefix, block)
            rendered = self.blocks.render_block(keyed, definitions)
            fill = partial(self._fill, found=found, unchecked=unchecked, withheld=withheld)
            out.append(placed.sub(fill, rendered))
        return "\n".join(out)

    def _fill(
        self,
        match: re.Match[str],
        found: list[EmbedPiece],
        unchecked: frozenset[str],
        withheld: frozenset[str] = frozenset(),
    ) -> str:
        index = int(match.group(2))
        if index >= len(found):  # a token Markdown copied out of a link definition
            return (match.group(1) or "") + (match.group(3) or "")
        piece = found[index]
        page = match.string
        start = match.start(2)
        open_p, close_p = match.group(1) or "", match.group(3) or ""
        if page.rfind("<", 0, start) > page.rfind(">", 0, start):
            return open_p + embed_html.embed_source(piece.path) + close_p  # inside a tag
        in_code = page.rfind("<pre", 0, start) > page.rfind("</pre>", 0, start)
        if isinstance(piece, NotePiece):
            if in_code:
                return open_p + embed_html.note_chip(piece) + close_p
            block = embed_html.note_block(piece, self._note_body(piece, unchecked))
            # A note alone in its paragraph replaces the paragraph; inside prose it
            # still draws as a block, which Qt lays out after the text before it.
            return block if open_p and close_p else open_p + block + close_p
        if isinstance(piece, MarkerPiece) and piece.path in withheld:
            return open_p + embed_html.withheld_chip(piece) + close_p
        return open_p + self._chip(piece, unchecked) + close_p

    @staticmethod
    def _chip(piece: EmbedPiece, unchecked: frozenset[str]) -> str:
        if isinstance(piece, CollectionPiece):
            return embed_html.collection_chip(piece)
        if isinstance(piece, RepeatPiece):
            return embed_html.repeat_chip(piece)
        if isinstance(piece, MarkerPiece):
            if piece.path in unchecked:
                return embed_html.unchecked_chip(piece)
            return embed_html.marker_chip(piece)
        return embed_html.note_chip(piece)

    def _note_body(self, piece: NotePiece, unchecked: frozenset[str]) -> str:
        # The piece is its own key: path, title, level, hop and the body as expanded, so a
        # changed note or a changed hop-2 resolution renders afresh.
        key = (piece, unchecked)
        cached = self._notes.get(key)
        if cached is None:
            cached = self.render_pieces(piece.body, unchecked)
            self._notes.put(key, cached)
        return cached


_shared = PreviewRenderer()


def render_preview(
    expansion: Expansion,
    renderer: PreviewRenderer | None = None,
    *,
    unchecked: frozenset[str] = frozenset(),
    withheld: frozenset[str] = frozenset(),
) -> str:
    """Sanitised preview HTML of an expanded Task (shared caches unless given a renderer)."""
    return (renderer or _shared).render_preview(expansion, unchecked, withheld)


def render_markdown(text: str, renderer: PreviewRenderer | None = None) -> str:
    """Sanitised HTML of Markdown text, e.g. a note in the note preview dialog."""
    return (renderer or _shared).render_markdown(text)
