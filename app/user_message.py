"""What the engine tells the operator: a level and one clear sentence, never a traceback."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Level = Literal["info", "warning", "error"]


@dataclass(frozen=True, slots=True)
class UserMessage:
    """One message for the operator.

    ``info`` is a passing note (status bar), ``warning`` needs attention while work goes on
    (message bar), ``error`` means an action failed and says what to do. ``key`` names what
    the message is about (e.g. ``"offline"``, ``"conflict"``) so a view can replace an older
    message on the same subject instead of stacking them.
    """

    level: Level
    text: str
    key: str = ""


def info(text: str, key: str = "") -> UserMessage:
    return UserMessage("info", text, key)


def warning(text: str, key: str = "") -> UserMessage:
    return UserMessage("warning", text, key)


def error(text: str, key: str = "") -> UserMessage:
    return UserMessage("error", text, key)
