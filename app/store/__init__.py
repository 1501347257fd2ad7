"""The local store: drafts, local history and the offline cache (SQLite, no Qt)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.lazy_names import lazy_names

if TYPE_CHECKING:
    from app.store.errors import StoreError, StoreProblem
    from app.store.history import HISTORY_KEEP, HISTORY_MIN_AGE_DAYS
    from app.store.local_store import LocalStore
    from app.store.records import Cached, Draft, HistoryEntry, HistoryReason, reason_label
    from app.store.server_keys import EMBEDDED_SERVER_KEY, server_key

# Loaded on first use: the window needs only the store's error type before its first paint,
# not SQLite.
_WHERE = {
    "StoreError": "app.store.errors",
    "StoreProblem": "app.store.errors",
    "HISTORY_KEEP": "app.store.history",
    "HISTORY_MIN_AGE_DAYS": "app.store.history",
    "LocalStore": "app.store.local_store",
    "Cached": "app.store.records",
    "Draft": "app.store.records",
    "HistoryEntry": "app.store.records",
    "HistoryReason": "app.store.records",
    "reason_label": "app.store.records",
    "EMBEDDED_SERVER_KEY": "app.store.server_keys",
    "server_key": "app.store.server_keys",
}


__getattr__ = lazy_names(__name__, _WHERE, globals())


__all__ = [
    "EMBEDDED_SERVER_KEY",
    "HISTORY_KEEP",
    "HISTORY_MIN_AGE_DAYS",
    "Cached",
    "Draft",
    "HistoryEntry",
    "HistoryReason",
    "LocalStore",
    "StoreError",
    "StoreProblem",
    "reason_label",
    "server_key",
]
