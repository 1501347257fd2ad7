"""Markdown rendering and sanitising of the preview; no Qt here."""

from app.render.links import EMBED_SCHEME, LinkAction, classify_link
from app.render.preview_html import (
    PREVIEW_STYLESHEET,
    PreviewRenderer,
    render_markdown,
    render_plain,
    render_preview,
)

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
