"""Markdown highlighting for the Task editor, with embeds drawn by what the preview made of them."""

from __future__ import annotations

import re
from collections.abc import Mapping

from PySide6.QtGui import (
    QColor,
    QFont,
    QSyntaxHighlighter,
    QTextBlock,
    QTextCharFormat,
    QTextDocument,
)

from app.core.embed_verdicts import EmbedVerdict
from app.core.expander import EMBED_RE, embed_path
from widgets.common.theme import Theme, current_theme

_IN_FENCE = 1
"""Block state: the block is inside a fenced code block."""

_PLAIN = -1
"""Block state: outside any fence. It is Qt's own "no state", which a block never highlighted
has: highlighting text put in without its highlighting (``highlight_later``) then stops
after the blocks asked for, unless a fence there opens or closes."""

# Precompiled once: highlightBlock runs for every block of a 256 KB Task on setPlainText,
# so each block costs a character test and at most three regex calls made in C.
_FENCE = re.compile(r"\s{0,3}(?:```|~~~)")
_FENCE_START_CHARS = frozenset(" `~")
_LINE_START = re.compile(
    r"(?P<heading>#{1,6}(?:\s.*)?$)|(?P<quote>\s{0,3}>.*)|(?P<list>\s*(?:[-*+]|\d{1,9}[.)])\s)"
)
_LINE_START_CHARS = frozenset("#> \t-*+0123456789")
# Separate patterns behind cheap ``in`` tests beat one alternation (re tries every branch at
# every position). The emphasis pattern starts with its literal so re can skip ahead to it.
_CODE_SPAN = re.compile(r"`[^`\n]+`")
_STRONG = re.compile(r"\*\*[^*\n]+\*\*|__[^_\n]+__")
_EMPHASIS = re.compile(r"\*(?<![*\w]\*)[^*\s][^*\n]*\*(?!\*)|_(?<![_\w]_)[^_\s][^_\n]*_(?![_\w])")
_LINK = re.compile(r"\[[^\]\n]*\]\([^)\n]*\)|<https?://[^>\s]+>")


def _format(
    colour: str | None = None,
    *,
    bold: bool = False,
    italic: bool = False,
    background: str | None = None,
    underline: QTextCharFormat.UnderlineStyle | None = None,
    underline_colour: str | None = None,
) -> QTextCharFormat:
    fmt = QTextCharFormat()
    if colour:
        fmt.setForeground(QColor(colour))
    if bold:
        fmt.setFontWeight(QFont.Weight.Bold)
    if italic:
        fmt.setFontItalic(True)
    if background:
        fmt.setBackground(QColor(background))
    if underline is not None:
        fmt.setUnderlineStyle(underline)
        if underline_colour:
            fmt.setUnderlineColor(QColor(underline_colour))
    return fmt


class TaskHighlighter(QSyntaxHighlighter):
    """Headings, emphasis, code, lists, links, and embeds in the preview's three kinds.

    Embed colours come from ``set_verdicts`` (the preview's Expansion decides); a path with
    no verdict yet is drawn neutral, never guessed.
    """

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self._verdicts: dict[str, EmbedVerdict] = {}
        # Bound once: looking Qt methods up on the wrapper costs more than calling them.
        self._set_format = self.setFormat
        self._set_state = self.setCurrentBlockState
        self._previous_state = self.previousBlockState
        self.theme = current_theme()
        self._build_formats(self.theme)

    def _build_formats(self, theme: Theme) -> None:
        self.heading_format = _format(theme.md_heading, bold=True)
        self.strong_format = _format(bold=True)
        self.emphasis_format = _format(italic=True)
        self.code_format = _format(theme.md_code, background=theme.md_code_bg)
        self.fence_format = _format(theme.md_code, background=theme.md_code_bg)
        self.list_format = _format(theme.md_list, bold=True)
        self.quote_format = _format(theme.muted, italic=True)
        self.link_format = _format(
            theme.md_link, underline=QTextCharFormat.UnderlineStyle.SingleUnderline
        )
        self._line_formats = {
            "heading": self.heading_format,
            "quote": self.quote_format,
            "list": self.list_format,
        }
        # Each kind differs by a shape as well as a hue (bold, dashes, italics, a wave), so
        # no one needs to tell the colours apart: a table's embed is underlined with dashes.
        self.embed_formats: dict[str | None, QTextCharFormat] = {
            None: _format(theme.embed_plain, background=theme.embed_plain_bg),
            "inlined": _format(theme.embed_note, background=theme.embed_note_bg, bold=True),
            "collection": _format(
                theme.embed_table,
                background=theme.embed_table_bg,
                bold=True,
                underline=QTextCharFormat.UnderlineStyle.DashUnderline,
                underline_colour=theme.embed_table,
            ),
            "repeat": _format(theme.embed_plain, background=theme.embed_plain_bg, italic=True),
            # The agent reads it, the viewer can't: no failure's red, a dotted line instead.
            "withheld": _format(
                theme.embed_note,
                background=theme.embed_plain_bg,
                underline=QTextCharFormat.UnderlineStyle.DotLine,
                underline_colour=theme.embed_note,
            ),
            "unreachable": _format(
                theme.embed_unreachable,
                background=theme.embed_unreachable_bg,
                bold=True,
                underline=QTextCharFormat.UnderlineStyle.WaveUnderline,
                underline_colour=theme.danger_mark,
            ),
        }

    def set_theme(self, theme: Theme) -> None:
        """Draw with ``theme``'s colours (the light or dark look changed)."""
        if theme == self.theme:
            return
        self.theme = theme
        self._build_formats(theme)
        self.rehighlight()

    # ------------------------------------------------------------------ verdicts

    def verdict(self, path: str) -> EmbedVerdict | None:
        """What the preview made of an embed of ``path``; None while it is unknown."""
        return self._verdicts.get(path)

    def set_verdicts(self, verdicts: Mapping[str, EmbedVerdict]) -> None:
        """Take the preview's verdicts and re-highlight only the blocks whose embeds changed."""
        new = dict(verdicts)
        old = self._verdicts
        changed = {p for p in old.keys() | new.keys() if old.get(p) != new.get(p)}
        self._verdicts = new
        if not changed or self.document() is None:
            return  # detached (a hidden editor): the whole text is highlighted when shown
        for block in self._blocks_embedding(changed):
            self.rehighlightBlock(block)

    def _blocks_embedding(self, paths: set[str]) -> list[QTextBlock]:
        document = self.document()
        found: list[QTextBlock] = []
        block = document.firstBlock()
        while block.isValid():
            text = block.text()
            if "![[" in text and any(
                embed_path(m.group(1)) in paths for m in EMBED_RE.finditer(text)
            ):
                found.append(block)
            block = block.next()
        return found

    # ------------------------------------------------------------------ highlighting

    def highlightBlock(self, text: str) -> None:
        in_fence = self._previous_state() == _IN_FENCE
        if not text:
            self._set_state(_IN_FENCE if in_fence else _PLAIN)
            return
        first = text[0]
        set_format = self._set_format
        fence = first in _FENCE_START_CHARS and _FENCE.match(text) is not None
        if fence or in_fence:
            set_format(0, len(text), self.fence_format)
            # A fence line opens or closes; the run sees raw text, so embeds in code count.
            self._set_state(_IN_FENCE if fence != in_fence else _PLAIN)
            if "![[" in text:
                self._highlight_embeds(text)
            return
        self._set_state(_PLAIN)
        if first in _LINE_START_CHARS:
            start = _LINE_START.match(text)
            if start is not None:
                kind = start.lastgroup
                set_format(0, start.end(), self._line_formats[kind] if kind else self.list_format)
        if "*" in text or "_" in text:
            for m in _STRONG.finditer(text):
                set_format(m.start(), m.end() - m.start(), self.strong_format)
            for m in _EMPHASIS.finditer(text):
                set_format(m.start(), m.end() - m.start(), self.emphasis_format)
        if "](" in text or "<http" in text:
            for m in _LINK.finditer(text):
                set_format(m.start(), m.end() - m.start(), self.link_format)
        if "`" in text:  # last, so code spans keep the marks inside them plain
            for m in _CODE_SPAN.finditer(text):
                set_format(m.start(), m.end() - m.start(), self.code_format)
        if "![[" in text:
            self._highlight_embeds(text)

    def _highlight_embeds(self, text: str) -> None:
        formats = self.embed_formats
        verdicts = self._verdicts
        for m in EMBED_RE.finditer(text):
            fmt = formats[verdicts.get(embed_path(m.group(1)))]
            self._set_format(m.start(), m.end() - m.start(), fmt)


__all__ = ["EmbedVerdict", "TaskHighlighter"]
