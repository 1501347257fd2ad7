"""The one place that decides what a link clicked in the preview may do."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Literal
from urllib.parse import quote, unquote, urlsplit

EMBED_SCHEME = "taskdesk-embed"
"""Only HTML the preview builds itself carries this scheme; the sanitiser drops it from
note and Task text."""

LinkKind = Literal["embed", "external", "disguised", "blocked"]

_WEB_SCHEMES = frozenset({"http", "https"})
_DANGEROUS_SCHEMES = frozenset({"javascript", "vbscript", "data", "file", "blob", "filesystem"})


@dataclass(frozen=True, slots=True)
class LinkAction:
    """What a click does: ``embed`` previews the note at ``target`` (a display path);
    ``external`` shows ``target`` to the operator before opening it in their browser;
    ``disguised`` is a web link holding characters that change how it reads (bidi
    controls, zero-width characters): it is never an ordinary link, and the confirmation
    shows it escaped (``shown_address``) with ``reason`` as a warning;
    ``blocked`` does nothing but say ``reason``."""

    kind: LinkKind
    target: str = ""
    reason: str = ""


def embed_url(path: str) -> str:
    """The link an embed chip or header carries."""
    return f"{EMBED_SCHEME}:{quote(path, safe='/')}"


def _has_control_chars(text: str) -> bool:
    return any(ord(ch) < 32 or ord(ch) == 127 for ch in text)


def is_hidden_char(ch: str) -> bool:
    """A character that changes how an address reads without showing itself: bidi controls
    (U+202A…202E, U+2066…2069, marks), zero-width ones, the BOM and every other format
    (Cf) or control (Cc) character, and the line and paragraph separators."""
    return unicodedata.category(ch) in ("Cf", "Cc", "Zl", "Zp")


def hidden_characters(text: str) -> list[str]:
    """The hidden characters of ``text``, each once, in order, as ``U+XXXX``."""
    return list(dict.fromkeys(f"U+{ord(ch):04X}" for ch in text if is_hidden_char(ch)))


def shown_address(url: str) -> str:
    """``url`` with every hidden character written out as ``<U+XXXX>``: what the operator
    must see before deciding to open it."""
    return "".join(f"<U+{ord(ch):04X}>" if is_hidden_char(ch) else ch for ch in url)


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
        hidden = hidden_characters(url)
        if hidden:
            return LinkAction(
                "disguised",
                target=url,
                reason=(
                    f"This address holds characters that change how it reads "
                    f"({', '.join(hidden)}), so it may not go where it seems to. "
                    "They are shown escaped below."
                ),
            )
        return LinkAction("external", target=url)
    if scheme == "mailto":
        # Only web pages open from the preview (issue: "opens only http(s)"); the address
        # shows in the reason so the operator can still copy it.
        return LinkAction(
            "blocked",
            reason=f"Mail links are not opened from the preview: {shown_address(url[7:80])}",
        )
    if scheme in _DANGEROUS_SCHEMES:
        return LinkAction("blocked", reason=f"{scheme}: links are never opened from the preview.")
    if not scheme:
        return LinkAction(
            "blocked",
            reason="Relative links would open local files; the preview does not follow them.",
        )
    return LinkAction("blocked", reason=f"{scheme}: links are not opened from the preview.")
