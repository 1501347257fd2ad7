"""The one place that decides what a link clicked in the preview may do."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from urllib.parse import quote, unquote, urlsplit

EMBED_SCHEME = "taskdesk-embed"
"""Only HTML the preview builds itself carries this scheme; the sanitiser drops it from
note and Task text."""

LinkKind = Literal["embed", "external", "blocked"]

_WEB_SCHEMES = frozenset({"http", "https"})
_DANGEROUS_SCHEMES = frozenset({"javascript", "vbscript", "data", "file", "blob", "filesystem"})


@dataclass(frozen=True, slots=True)
class LinkAction:
    """What a click does: ``embed`` previews the note at ``target`` (a display path);
    ``external`` shows ``target`` to the operator before opening it in their browser;
    ``blocked`` does nothing but say ``reason``."""

    kind: LinkKind
    target: str = ""
    reason: str = ""


def embed_url(path: str) -> str:
    """The link an embed chip or header carries."""
    return f"{EMBED_SCHEME}:{quote(path, safe='/')}"


def _has_control_chars(text: str) -> bool:
    return any(ord(ch) < 32 or ord(ch) == 127 for ch in text)


def classify_link(url: str) -> LinkAction:
    """Decide what a clicked link may do. Never raises."""
    url = url.strip()
    if not url:
        return LinkAction("blocked", reason="The link is empty.")
    try:
        parts = urlsplit(url)
    except ValueError:
        return LinkAction("blocked", reason="The link is not a valid address.")
    scheme = parts.scheme.lower()
    if scheme == EMBED_SCHEME:
        path = unquote(url[len(EMBED_SCHEME) + 1 :])
        if not path or _has_control_chars(path):
            return LinkAction("blocked", reason="The embed link names no file.")
        return LinkAction("embed", target=path)
    if scheme in _WEB_SCHEMES:
        if not parts.hostname or _has_control_chars(url):
            return LinkAction("blocked", reason="The web link has no valid host.")
        return LinkAction("external", target=url)
    if scheme == "mailto":
        # Only web pages open from the preview (issue: "opens only http(s)"); the address
        # shows in the reason so the operator can still copy it.
        return LinkAction(
            "blocked", reason=f"Mail links are not opened from the preview: {url[7:80]}"
        )
    if scheme in _DANGEROUS_SCHEMES:
        return LinkAction("blocked", reason=f"{scheme}: links are never opened from the preview.")
    if not scheme:
        return LinkAction(
            "blocked",
            reason="Relative links would open local files; the preview does not follow them.",
        )
    return LinkAction("blocked", reason=f"{scheme}: links are not opened from the preview.")
