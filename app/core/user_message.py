"""What the engine tells the operator: a severity, a subject and one clear sentence."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Severity(Enum):
    """How loudly a message is shown; the one severity type of the app."""

    INFO = "info"  # a passing note: the status bar
    WARNING = "warning"  # needs attention while work goes on: the message bar
    ERROR = "error"  # an action failed: a modal that says what to do


class MessageKey(Enum):
    """What a message is about, so a view replaces an older message on the same subject."""

    NONE = ""
    LOAD = "load"
    SAVE = "save"
    OFFLINE = "offline"
    CONFLICT = "conflict"
    DRAFT = "draft"
    DISCARD = "discard"
    STORE = "store"
    PREVIEW = "preview"
    NOTES = "notes"  # the notes and collections to insert
    CONNECT = "connect"  # signing in to a server
    MERGE = "merge"  # a merge in the editor with conflicts still open
    EDIT_HINT = "edit_hint"  # how editing starts: it goes once the operator edits


@dataclass(frozen=True, slots=True)
class UserMessage:
    """One message for the operator: ``severity``, ``text`` (one or two sentences), ``key``."""

    severity: Severity
    text: str
    key: MessageKey = MessageKey.NONE


def info(text: str, key: MessageKey = MessageKey.NONE) -> UserMessage:
    return UserMessage(Severity.INFO, text, key)


def warning(text: str, key: MessageKey = MessageKey.NONE) -> UserMessage:
    return UserMessage(Severity.WARNING, text, key)


def error(text: str, key: MessageKey = MessageKey.NONE) -> UserMessage:
    return UserMessage(Severity.ERROR, text, key)


def makes_untrue(later: UserMessage, earlier: MessageKey) -> bool:
    """Whether ``later`` says that a standing warning about ``earlier`` no longer holds.

    A passing note on the same subject ends it (the server is back, the save landed), and
    a landed save ends the warning that the Task was not saved while the server was gone.
    """
    if later.severity is not Severity.INFO or earlier is MessageKey.NONE:
        return False
    return later.key is earlier or (later.key, earlier) == (MessageKey.SAVE, MessageKey.OFFLINE)
