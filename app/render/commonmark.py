"""The one Markdown dialect of the preview: CommonMark with GitHub's tables, task lists,
strikethrough and web autolinks (markdown-it), and the top-level blocks of a text."""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.tasklists import tasklists_plugin

_CHECKBOX = '<input class="task-list-item-checkbox"'
_CHECKED = "\N{BALLOT BOX WITH CHECK}"
_UNCHECKED = "\N{BALLOT BOX}"

Env = MutableMapping[str, Any]
MAX_NESTING = 60


def _plain_task_boxes_and_aligns(state: StateCore) -> None:
    """A task item's box becomes a box character (an ``<input>`` is neither safe nor
    needed: the preview is read-only), and a table cell's ``text-align`` style becomes an
    ``align`` attribute (the sanitiser lets no style through)."""
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type == "list_item_open" and token.attrGet("class") == "task-list-item":
            # The task list rule marked the item and put the box first in its paragraph's
            # inline (item, paragraph, inline); a box typed as HTML is left to the sanitiser.
            inline = tokens[index + 2]
            if inline.children and inline.children[0].content.startswith(_CHECKBOX):
                checked = 'checked="checked"' in inline.children[0].content
                inline.children[0] = Token(
                    "text", "", 0, content=_CHECKED if checked else _UNCHECKED
                )
        elif token.type in ("th_open", "td_open"):
            style = token.attrs.pop("style", None)
            if isinstance(style, str) and style.startswith("text-align:"):
                token.attrs["align"] = style.removeprefix("text-align:")


def _web_links_only(md: MarkdownIt) -> None:
    """Bare links are linked only when they start with http:// or https:// (GitHub links
    ``www.`` and e-mail addresses too; a Task reads them as written)."""
    linkify = md.linkify
    if linkify is None:  # linkify-it-py is a dependency; without it no bare link is linked
        return
    linkify.set({"fuzzy_link": False, "fuzzy_email": False, "fuzzy_ip": False})
    for schema in ("mailto:", "ftp:", "//"):
        linkify.add(schema, None)


def new_markdown() -> MarkdownIt:
    """A renderer of the preview's dialect (keeps no state between calls, but build one a
    thread: its rule chains are cached lazily)."""
    md = MarkdownIt("commonmark", {"linkify": True})
    # Lists nested ten deep stay whole (the preset stops at 20 token levels, two a list);
    # deeper text is shown as written (MarkdownBlocks), never dropped.
    md.options["maxNesting"] = MAX_NESTING
    md.enable(["table", "strikethrough", "linkify"])
    _web_links_only(md)
    md.use(tasklists_plugin)
    md.core.ruler.push("taskdesk_plain_boxes", _plain_task_boxes_and_aligns)
    return md


def new_block_parser() -> MarkdownIt:
    """The same dialect's block parser alone (no inline parsing): where top-level blocks
    start and end, and the reference definitions."""
    md = MarkdownIt("commonmark").enable("table")
    md.options["maxNesting"] = MAX_NESTING  # blocks end where the renderer's end
    md.disable(["inline", "text_join"])
    return md


def top_level_spans(parser: MarkdownIt, text: str, env: Env | None = None) -> list[range]:
    """The lines ``[start, end)`` of each top-level block of ``text``; the lines between
    (blank lines, link reference definitions) belong to none."""
    tokens = parser.parse(text, {} if env is None else env)
    return [span for span, _ in top_level_groups(tokens)]


def _starts_block(token: Token) -> bool:
    return token.level == 0 and bool(token.map) and token.nesting >= 0


def top_level_groups(tokens: list[Token]) -> list[tuple[range, list[Token]]]:
    """A whole text's tokens cut into its top-level blocks: each block's lines (as
    ``top_level_spans`` gives them) and its tokens, closing ones included."""
    groups: list[tuple[range, list[Token]]] = []
    for token in tokens:
        if _starts_block(token) and token.map is not None:
            start, stop = token.map
            groups.append((range(start, stop), [token]))
        elif groups:
            groups[-1][1].append(token)
    return groups
