"""Markdown rendering and sanitising of the preview; no Qt here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.lazy_names import lazy_names

if TYPE_CHECKING:
    from app.render.links import EMBED_SCHEME, LinkAction, classify_link
    from app.render.preview_html import (
        PreviewRenderer,
        render_markdown,
        render_plain,
        render_preview,
    )
    from app.render.preview_stylesheet import PREVIEW_STYLESHEET

# Loaded on first use: a module that only needs the link rule (a dialog) must not load the
# Markdown renderer.
_WHERE = {
    "EMBED_SCHEME": "app.render.links",
    "LinkAction": "app.render.links",
    "classify_link": "app.render.links",
    "PREVIEW_STYLESHEET": "app.render.preview_stylesheet",
    "PreviewRenderer": "app.render.preview_html",
    "render_markdown": "app.render.preview_html",
    "render_plain": "app.render.preview_html",
    "render_preview": "app.render.preview_html",
}


__getattr__ = lazy_names(__name__, _WHERE, globals())


__all__ = [
    "EMBED_SCHEME",
    "PREVIEW_STYLESHEET",
    "LinkAction",
    "PreviewRenderer",
    "classify_link",
    "render_markdown",
    "render_plain",
    "render_preview",
]
