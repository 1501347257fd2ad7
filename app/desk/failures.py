"""The one way a failure becomes words for the operator: ``describe_failure(exc)``."""

from __future__ import annotations

import logging
import sys
from typing import Literal

from app.client.scrubbing import scrub_tokens
from app.core import user_message
from app.core.user_message import MessageKey, UserMessage

log = logging.getLogger("taskdesk")

UNEXPECTED = (
    "Something unexpected went wrong ({name}). Your text is kept; try again, and if it keeps "
    "happening send the log file to support."
)


def failure_text(exc: BaseException) -> str:
    """The sentence an operator reads for ``exc``; unknown failures are logged in full."""
    if _is(exc, "app.client.errors", "TaskdeskError") or _is(exc, "app.store.errors", "StoreError"):
        return str(getattr(exc, "message", exc))
    if (
        _is(exc, "app.connect.embedded", "EmbeddedError")
        or _is(exc, "app.core.workspace", "WorkspaceError")
    ) and str(exc):
        return str(exc)
    log.error("unexpected failure", exc_info=exc)
    return UNEXPECTED.format(name=type(exc).__name__)


ConnectField = Literal["address", "token"]


def connect_fault(exc: BaseException) -> ConnectField | None:
    """Which field of the connect dialog a failed sign-in points at: a refused token is the
    token's fault, a server that can't be reached or doesn't answer as one the address's."""
    if _is(exc, "app.client.errors", "Unauthorized"):
        return "token"
    if _is(exc, "app.client.errors", "Offline") or _is(exc, "app.client.errors", "BadResponse"):
        return "address"
    return None


def describe_failure(
    exc: BaseException, *, doing: str = "", key: MessageKey = MessageKey.NONE
) -> UserMessage:
    """An error message for ``exc``; ``doing`` ("The versions could not be compared") leads."""
    text = failure_text(exc)
    return user_message.error(f"{doing}: {text}" if doing else text, key)


def _is(exc: BaseException, module: str, name: str) -> bool:
    """``isinstance(exc, module.name)`` without importing ``module``: an exception of that
    class exists only once its module is loaded. (Importing them all here put the local
    workspace, the expander and sqlite3 before the window's first paint.)"""
    loaded = sys.modules.get(module)
    return loaded is not None and isinstance(exc, getattr(loaded, name))


__all__ = ["describe_failure", "failure_text", "scrub_tokens"]  # scrub_tokens: for the window's log
