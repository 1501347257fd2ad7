"""Markdown rendering and sanitising of the preview; no Qt here."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.render.links import EMBED_SCHEME, LinkAction, classify_link
    from app.render.preview_html import (
        PREVIEW_STYLESHEET,
        PreviewRenderer,
        render_markdown,
        render_plain,
        render_preview,
    )

# Loaded on first use: a module that only needs the link rule (a dialog) must not load the
# Markdown renderer.
_WHERE = {
    "EMBED_SCHEME": "app.render.links",
    "LinkAction": "app.render.links",
    "classify_link": "app.render.links",
    "PREVIEW_STYLESHEET": "app.render.preview_html",
    "PreviewRenderer": "app.render.preview_html",
    "render_markdown": "app.render.preview_html",
    "render_plain": "app.render.preview_html",
    "render_preview": "app.render.preview_html",
}


def __getattr__(name: str) -> object:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


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
