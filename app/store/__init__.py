"""The local store: drafts, local history and the offline cache (SQLite, no Qt)."""

from app.store.errors import StoreError, StoreProblem
from app.store.history import HISTORY_KEEP, HISTORY_MIN_AGE_DAYS
from app.store.local_store import LocalStore
from app.store.records import Cached, Draft, HistoryEntry, HistoryReason, reason_label
from app.store.server_keys import EMBEDDED_SERVER_KEY, server_key

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
