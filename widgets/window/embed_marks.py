"""The window's embed-status asker: it lives in app/desk (``app.desk.embed_status``)."""

from __future__ import annotations

from app.desk.embed_status import PER_GUILD_AT_ONCE, EmbedMarks

__all__ = ["PER_GUILD_AT_ONCE", "EmbedMarks"]
