"""The trusted HTML the preview draws for embeds: built here only, every value escaped."""

from __future__ import annotations

import html

from app.core.expander import CollectionPiece, MarkerPiece, NotePiece, RepeatPiece, file_stem
from app.render.links import embed_url

NOTE_HOP_CLASSES = {1: "embed-hop-1", 2: "embed-hop-2"}
"""The class of an inlined note's cell, by hop: the preview's stylesheet tints a hop-2 note
apart from its holder. Colours live in that stylesheet (light or dark), never here."""


def _text(value: str) -> str:
    return html.escape(value, quote=True)


def _chip(css_class: str, path: str, label: str) -> str:
    """A link drawn as a chip; its span's class (``chip-…``) picks the chip's colours."""
    chip_class = "chip-" + css_class.removeprefix("embed-")
    return (
        f'<a class="{css_class}" href="{_text(embed_url(path))}">'
        f'<span class="{chip_class}">&nbsp;{label}&nbsp;</span></a>'
    )


def note_title(piece: NotePiece) -> str:
    return piece.title or file_stem(piece.path)


def note_block(piece: NotePiece, body_html: str) -> str:
    """An inlined note: a one-cell tinted table, a header line (title link, path, level),
    then the note's rendered body (already sanitised)."""
    hop_class = NOTE_HOP_CLASSES.get(piece.hop, NOTE_HOP_CLASSES[2])
    header = (
        f'<p class="embed-header" style="margin:0px; font-size:small;">'
        f'<a class="embed-note-link" href="{_text(embed_url(piece.path))}">'
        f"<b>{_text(note_title(piece))}</b></a>"
        f"&nbsp;&nbsp;{_text(piece.path)}&nbsp;&nbsp;·&nbsp;&nbsp;{_text(piece.level)}</p>"
    )
    return (
        f'<table class="embed-note" width="100%" border="0" cellspacing="0" cellpadding="6"'
        f' style="margin-top:4px; margin-bottom:4px;">'
        f'<tr><td class="{hop_class}">{header}\n{body_html}</td></tr></table>'
    )


def note_chip(piece: NotePiece) -> str:
    """An inlined note where a block cannot go (inside a code block or an attribute)."""
    label = "↳&nbsp;" + _text(note_title(piece))
    return _chip("embed-note-chip", piece.path, label)


def collection_chip(piece: CollectionPiece) -> str:
    label = "▦&nbsp;" + _text(piece.name)
    return _chip("embed-collection", piece.path, label)


def repeat_chip(piece: RepeatPiece) -> str:
    return _chip("embed-repeat", piece.path, _text(piece.title))


def marker_chip(piece: MarkerPiece) -> str:
    label = f"⚠&nbsp;{_text(piece.path)} — not reachable"
    return _chip("embed-marker", piece.path, label)


def withheld_chip(piece: MarkerPiece) -> str:
    """A Task embed the agent reads and the viewer may not (``app.core.viewer_reach``)."""
    label = f"◐&nbsp;{_text(piece.path)} — the agent reads this note; you can't see its text"
    return _chip("embed-withheld", piece.path, label)


def unchecked_chip(piece: MarkerPiece) -> str:
    """An embed the app could not check (offline, or no note text from this server)."""
    label = f"?&nbsp;{_text(piece.path)} — not checked"
    return _chip("embed-unchecked", piece.path, label)


def embed_source(path: str) -> str:
    """An embed as written, for places only text may go (an attribute value)."""
    return _text(f"![[{path}]]")
