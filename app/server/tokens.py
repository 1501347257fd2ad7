"""Bearer tokens as the server keeps them: only their SHA-256, never the token itself.

A token is 256 random bits (``new_token``), so its SHA-256 is as good as a password hash
and a lookup by digest leaks nothing; the digest found is still compared in constant time.
A revoked token's row keeps a marker no digest can equal, so its owner stays on record.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

REVOKED = "revoked:"
"""The start of a revoked row's stored token: not hex, so no presented token matches it."""


def token_digest(token: str) -> str:
    """What the database stores for ``token``: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def matches(stored: str, token: str) -> bool:
    """Whether ``token`` is the one ``stored`` was made from, in constant time."""
    return hmac.compare_digest(stored.encode(), token_digest(token).encode())


def new_token() -> str:
    """A new secret: 256 random bits, URL-safe (43 characters)."""
    return secrets.token_urlsafe(32)


def revoked_marker(owner_id: str) -> str:
    """The stored token of a revoked owner: unique per owner, equal to no digest."""
    return f"{REVOKED}{owner_id}:{secrets.token_hex(8)}"
