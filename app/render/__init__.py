"""Markdown rendering and sanitising of the preview; no Qt here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.lazy_names import lazy_names, public_names

if TYPE_CHECKING:  # what type checkers see; tests/architecture checks it against _WHERE
    from app.render.links import EMBED_SCHEME as EMBED_SCHEME
    from app.render.links import LinkAction as LinkAction
    from app.render.links import classify_link as classify_link
    from app.render.preview_html import PreviewRenderer as PreviewRenderer
    from app.render.preview_html import render_markdown as render_markdown
    from app.render.preview_html import render_plain as render_plain
    from app.render.preview_html import render_preview as render_preview
    from app.render.preview_stylesheet import PREVIEW_STYLESHEET as PREVIEW_STYLESHEET

# Loaded on first use: a module that only needs the link rule (a dialog) must not load the
# Markdown renderer.
_WHERE = {
    "app.render.links": ("EMBED_SCHEME", "LinkAction", "classify_link"),
    "app.render.preview_stylesheet": ("PREVIEW_STYLESHEET",),
    "app.render.preview_html": (
        "PreviewRenderer",
        "render_markdown",
        "render_plain",
        "render_preview",
    ),
}


__getattr__ = lazy_names(__name__, _WHERE, globals())

__all__ = public_names(_WHERE)
