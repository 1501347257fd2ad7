"""A Task's Markdown outline (headings, lists, paragraphs by line) and its size by section.

The outline is CommonMark's, from markdown-it: a ``#`` inside a code fence is no heading, and
an underlined title is. Lines are counted as markdown-it counts them: ``\\r\\n``, ``\\r`` and
``\\n`` each end one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from app.core.limits import TASK_MAX_BYTES

_LINE_END = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class Block:
    """A top-level block: ``kind`` is heading, list or paragraph (other blocks are left out);
    lines ``[start, end)`` are 0-based. A heading has ``level`` and ``title``; a list has
    ``items`` and whether it is ``ordered``."""

    kind: str
    start: int
    end: int
    level: int = 0
    title: str = ""
    items: int = 0
    ordered: bool = False


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    # The outline reads blocks and a heading's raw text, never inline markup: without the
    # inline pass a Task parses in half the time (the fleet checks thousands at once).
    return MarkdownIt("commonmark").disable(["inline", "text_join"])


def outline(text: str) -> tuple[Block, ...]:
    """The top-level headings, lists and paragraphs of ``text``, in order."""
    tokens = _parser().parse(text)
    blocks: list[Block] = []
    for index, token in enumerate(tokens):
        if token.level != 0 or token.map is None:
            continue
        start, end = token.map
        if token.type == "heading_open":
            title = tokens[index + 1].content.strip()
            blocks.append(Block("heading", start, end, level=int(token.tag[1:]), title=title))
        elif token.type in ("bullet_list_open", "ordered_list_open"):
            items = sum(
                1
                for t in _until_close(tokens, index)
                if t.type == "list_item_open" and t.level == 1
            )
            blocks.append(
                Block("list", start, end, items=items, ordered=token.type == "ordered_list_open")
            )
        elif token.type == "paragraph_open":
            blocks.append(Block("paragraph", start, end))
    return tuple(blocks)


def _until_close(tokens: list[Token], index: int) -> list[Token]:
    """The tokens from ``index`` to the one closing it (same nesting level)."""
    opening = tokens[index]
    closing = opening.type.replace("_open", "_close")
    for end in range(index + 1, len(tokens)):
        if tokens[end].type == closing and tokens[end].level == opening.level:
            return tokens[index : end + 1]
    return tokens[index:]


def line_starts(text: str) -> list[int]:
    """The character offset where each line starts, as markdown-it numbers lines."""
    return [0, *(m.end() for m in _LINE_END.finditer(text))]


# ---------------------------------------------------------------- the Task's size by section


@dataclass(frozen=True, slots=True)
class Section:
    """A part of the Task from one top-level heading to the next (or the text before the
    first heading, with ``level`` 0 and no title). ``line`` is 1-based."""

    title: str
    level: int
    line: int
    bytes: int
    share: float


@dataclass(frozen=True, slots=True)
class TaskSize:
    """The Task's UTF-8 bytes against its 256 KB limit, and which sections hold them."""

    total: int
    limit: int
    sections: tuple[Section, ...]

    @property
    def over_limit(self) -> bool:
        return self.total > self.limit

    def largest_first(self) -> tuple[Section, ...]:
        return tuple(sorted(self.sections, key=lambda s: -s.bytes))


def task_size(text: str, limit: int = TASK_MAX_BYTES) -> TaskSize:
    """The Task's size broken down by heading; the sections' bytes add up to the total."""
    starts = line_starts(text)
    headings = {b.start: b for b in outline(text) if b.kind == "heading"}
    cuts = list(headings)
    if not cuts or cuts[0] != 0:
        cuts.insert(0, 0)
    total = _size(text)
    sections = []
    for i, line in enumerate(cuts):
        begin = starts[line] if line < len(starts) else len(text)
        end = starts[cuts[i + 1]] if i + 1 < len(cuts) else len(text)
        size = _size(text[begin:end])
        heading = headings.get(line)
        if heading is None and not size:
            continue  # an empty Task has no section to show
        sections.append(
            Section(
                heading.title if heading else "",
                heading.level if heading else 0,
                line + 1,
                size,
                size / total if total else 0.0,
            )
        )
    return TaskSize(total, limit, tuple(sections))


def _size(text: str) -> int:
    # surrogatepass: counts a lone surrogate as the expander does, instead of raising.
    return len(text.encode("utf-8", "surrogatepass"))
