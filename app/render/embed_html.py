"""The trusted HTML the preview draws for embeds: built here only, every value escaped."""

from __future__ import annotations

import html

from app.core.expander import CollectionPiece, MarkerPiece, NotePiece, RepeatPiece, file_stem
from app.render.links import embed_url

NOTE_TINTS = {1: "#eef3fa", 2: "#f6f2e8"}
"""Background of an inlined note, by hop, so a hop-2 note stands apart from its holder."""


def _text(value: str) -> str:
    return html.escape(value, quote=True)


def _chip(css_class: str, path: str, label: str, style: str) -> str:
    return (
        f'<a class="{css_class}" href="{_text(embed_url(path))}">'
        f'<span style="{style}">&nbsp;{label}&nbsp;</span></a>'
    )


def note_title(piece: NotePiece) -> str:
    return piece.title or file_stem(piece.path)


def note_block(piece: NotePiece, body_html: str) -> str:
    """An inlined note: a one-cell tinted table, a header line (title link, path, level),
    then the note's rendered body (already sanitised)."""
    tint = NOTE_TINTS.get(piece.hop, NOTE_TINTS[2])
    header = (
        f'<p class="embed-header" style="margin:0px; font-size:small; color:#4a5568;">'
        f'<a class="embed-note-link" href="{_text(embed_url(piece.path))}">'
        f"<b>{_text(note_title(piece))}</b></a>"
        f"&nbsp;&nbsp;{_text(piece.path)}&nbsp;&nbsp;·&nbsp;&nbsp;{_text(piece.level)}</p>"
    )
    return (
        f'<table class="embed-note" width="100%" border="0" cellspacing="0" cellpadding="6"'
        f' bgcolor="{tint}" style="margin-top:4px; margin-bottom:4px;">'
        f"<tr><td>{header}\n{body_html}</td></tr></table>"
    )


def note_chip(piece: NotePiece) -> str:
    """An inlined note where a block cannot go (inside a code block or an attribute)."""
    label = "↳&nbsp;" + _text(note_title(piece))
    return _chip("embed-note-chip", piece.path, label, "background-color:#eef3fa;")


def collection_chip(piece: CollectionPiece) -> str:
    label = "▦&nbsp;" + _text(piece.name)
    return _chip("embed-collection", piece.path, label, "background-color:#e3f1e6; color:#1e5631;")


def repeat_chip(piece: RepeatPiece) -> str:
    return _chip(
        "embed-repeat", piece.path, _text(piece.title), "background-color:#f1f1f1; color:#666666;"
    )


def marker_chip(piece: MarkerPiece) -> str:
    label = f"⚠&nbsp;{_text(piece.path)} — not reachable"
    return _chip(
        "embed-marker",
        piece.path,
        label,
        "background-color:#fde2e1; color:#a61b1b; font-weight:bold;",
    )


def unchecked_chip(piece: MarkerPiece) -> str:
    """An embed the app could not check (offline, or no note text from this server)."""
    label = f"?&nbsp;{_text(piece.path)} — not checked"
    return _chip("embed-unchecked", piece.path, label, "background-color:#eeeeee; color:#555555;")


def embed_source(path: str) -> str:
    """An embed as written, for places only text may go (an attribute value)."""
    return _text(f"![[{path}]]")
