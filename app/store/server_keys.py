"""The key the store files everything under: one per server, never holding credentials."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

EMBEDDED_SERVER_KEY = "embedded:local-workspace"
"""The embedded default runs on a new loopback port each start, so its URL can't be the key:
drafts made against it must still be offered back after a restart."""


def server_key(url: str) -> str:
    """``url`` reduced to scheme://host[:port][/path]: lower-case scheme and host, no user,
    password, query or fragment (a token pasted into a URL must never reach the store), no
    trailing slash, default ports dropped."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"  # IPv6 literal
    try:
        port = parts.port
    except ValueError:
        port = None
    default_port = {"http": 80, "https": 443}.get(scheme)
    netloc = host if port is None or port == default_port else f"{host}:{port}"
    return urlunsplit((scheme, netloc, parts.path.rstrip("/"), "", ""))
