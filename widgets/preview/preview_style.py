"""The preview document's stylesheet in the light or dark look: tables, code, embed chips."""

from __future__ import annotations

from functools import cache

from app.render.preview_stylesheet import PREVIEW_STYLESHEET
from widgets.common.theme import Theme

_THEMED = """
body {{ color: {ink}; }}
a {{ color: {md_link}; }}
pre, code {{ background-color: {panel}; }}
table {{ border-collapse: collapse; margin-top: 6px; margin-bottom: 6px; }}
th, td {{
  border-width: 1px; border-style: solid; border-color: {table_grid};
  padding: 4px 8px; vertical-align: top;
}}
th {{ background-color: {table_head}; font-weight: bold; }}
table.embed-note {{ margin-top: 4px; margin-bottom: 4px; }}
td.embed-hop-1, td.embed-hop-2 {{ border-style: none; padding: 6px; }}
td.embed-hop-1 {{ background-color: {note_hop1}; }}
td.embed-hop-2 {{ background-color: {note_hop2}; }}
p.embed-header {{ color: {muted}; }}
span.chip-note-chip {{ background-color: {embed_note_bg}; color: {embed_note}; }}
span.chip-collection {{ background-color: {embed_table_bg}; color: {embed_table}; }}
span.chip-repeat {{ background-color: {embed_plain_bg}; color: {embed_plain}; font-style: italic; }}
span.chip-marker {{
  background-color: {embed_unreachable_bg}; color: {embed_unreachable}; font-weight: bold;
}}
span.chip-unchecked {{ background-color: {embed_plain_bg}; color: {embed_plain}; }}
"""
"""Tables: a grid, padding, cells that wrap (Qt wraps a cell's text to the column) and a
tinted header row. Inlined notes are tables too: their cells have no grid, only a tint."""


@cache  # per look: each preview pane asks on every palette and style change
def preview_stylesheet(theme: Theme) -> str:
    """The structural rules of ``app.render`` followed by ``theme``'s colours."""
    return PREVIEW_STYLESHEET + _THEMED.format(**theme.tokens())
