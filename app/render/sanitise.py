"""The allowlist every piece of rendered note and Task Markdown passes through."""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit

import nh3

ALLOWED_TAGS = frozenset(
    {
        "a", "b", "blockquote", "br", "code", "dd", "del", "div", "dl", "dt", "em",
        "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "li", "ol", "p", "pre", "s",
        "span", "strong", "sub", "sup", "table", "tbody", "td", "th", "thead", "tr", "u", "ul",
    }
)  # fmt: skip
"""Qt's rich-text subset, minus anything that loads, runs or submits. ``img`` is only let
through so its alt text can become a text placeholder (see ``_IMAGE``)."""

ALLOWED_ATTRIBUTES: dict[str, set[str]] = {
    "*": set(),  # none on every tag (nh3 would otherwise keep lang and title everywhere)
    "a": {"href", "title"},
    "img": {"alt"},
    "ol": {"start"},
    "td": {"align"},
    "th": {"align"},
}
"""No ``style`` (Qt would load ``background-image`` URLs), no ``class``, no event handlers."""

ALLOWED_URL_SCHEMES = frozenset({"http", "https", "mailto"})

# Tags whose content is code or markup for another engine: dropped with the tag, not shown.
_DROPPED_WITH_CONTENT = {
    "script", "style", "template", "textarea", "title", "noscript", "iframe", "object",
    "embed", "applet", "svg", "math", "xmp", "noembed", "noframes", "select", "frameset",
}  # fmt: skip

# nh3 serialises every kept <img> exactly so, having dropped all but alt.
_IMAGE = re.compile(r'<img(?: alt="([^"]*)")?>')


def _keep_absolute_urls(tag: str, attribute: str, value: str) -> str | None:
    """Drop relative links: in a QTextBrowser they would resolve to local files."""
    if attribute != "href":
        return value
    try:
        scheme = urlsplit(value.strip()).scheme.lower()
    except ValueError:
        return None
    return value if scheme in ALLOWED_URL_SCHEMES else None


def _image_placeholder(match: re.Match[str]) -> str:
    alt = html.unescape(match.group(1) or "").strip()
    label = f"image: {alt}" if alt else "image"
    return f"<span>[{html.escape(label, quote=False)}]</span>"


def sanitise_html(fragment: str) -> str:
    """Clean untrusted HTML to the preview's allowlist; images become ``[image: alt]``."""
    cleaned = nh3.clean(
        fragment,
        tags=set(ALLOWED_TAGS),
        clean_content_tags=_DROPPED_WITH_CONTENT,
        attributes=ALLOWED_ATTRIBUTES,
        attribute_filter=_keep_absolute_urls,
        url_schemes=set(ALLOWED_URL_SCHEMES),
        link_rel=None,
        strip_comments=True,
    )
    if "<img" in cleaned:
        cleaned = _IMAGE.sub(_image_placeholder, cleaned)
    return cleaned
