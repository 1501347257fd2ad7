"""The local store: drafts, local history and the offline cache (SQLite, no Qt)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.lazy_names import lazy_names, public_names

if TYPE_CHECKING:  # what type checkers see; tests/architecture checks it against _WHERE
    from app.store.errors import StoreError as StoreError
    from app.store.errors import StoreProblem as StoreProblem
    from app.store.history import HISTORY_KEEP as HISTORY_KEEP
    from app.store.history import HISTORY_MIN_AGE_DAYS as HISTORY_MIN_AGE_DAYS
    from app.store.local_store import LocalStore as LocalStore
    from app.store.records import Cached as Cached
    from app.store.records import Draft as Draft
    from app.store.records import HistoryEntry as HistoryEntry
    from app.store.records import HistoryReason as HistoryReason
    from app.store.records import reason_label as reason_label
    from app.store.server_keys import EMBEDDED_SERVER_KEY as EMBEDDED_SERVER_KEY
    from app.store.server_keys import server_key as server_key

# Loaded on first use: the window needs only the store's error type before its first paint,
# not SQLite.
_WHERE = {
    "app.store.errors": ("StoreError", "StoreProblem"),
    "app.store.history": ("HISTORY_KEEP", "HISTORY_MIN_AGE_DAYS"),
    "app.store.local_store": ("LocalStore",),
    "app.store.records": ("Cached", "Draft", "HistoryEntry", "HistoryReason", "reason_label"),
    "app.store.server_keys": ("EMBEDDED_SERVER_KEY", "server_key"),
}


__getattr__ = lazy_names(__name__, _WHERE, globals())

__all__ = public_names(_WHERE)
