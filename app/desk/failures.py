"""The one way a failure becomes words for the operator: ``describe_failure(exc)``."""

from __future__ import annotations

import logging

from app.client.errors import TaskdeskError
from app.connect.embedded import EmbeddedError
from app.core import user_message
from app.core.user_message import MessageKey, UserMessage
from app.core.workspace import WorkspaceError
from app.store.errors import StoreError

log = logging.getLogger("taskdesk")

UNEXPECTED = (
    "Something unexpected went wrong ({name}). Your text is kept; try again, and if it keeps "
    "happening send the log file to support."
)


def failure_text(exc: BaseException) -> str:
    """The sentence an operator reads for ``exc``; unknown failures are logged in full."""
    if isinstance(exc, TaskdeskError | StoreError):
        return exc.message
    if isinstance(exc, EmbeddedError | WorkspaceError) and str(exc):
        return str(exc)
    log.error("unexpected failure", exc_info=exc)
    return UNEXPECTED.format(name=type(exc).__name__)


def describe_failure(
    exc: BaseException, *, doing: str = "", key: MessageKey = MessageKey.NONE
) -> UserMessage:
    """An error message for ``exc``; ``doing`` ("The versions could not be compared") leads."""
    text = failure_text(exc)
    return user_message.error(f"{doing}: {text}" if doing else text, key)
