"""The one path for messages to the operator: status bar, message bar, or a modal for errors."""

from __future__ import annotations

import logging
import sys
import traceback
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox, QStatusBar, QWidget

from app.client.scrubbing import scrub_tokens
from app.core.user_message import Severity, UserMessage
from widgets.common.plain_text import plain_message_box
from widgets.window.banners import MessageBar

log = logging.getLogger("taskdesk")


class Messages(QObject):
    """Every message for the operator goes through here, so each is shown the same way.

    ``shown`` fires for each message (text, Severity) so tests and the log see them all.
    Error modals are opened window-modal without blocking, and kept as ``error_box``.
    """

    shown = Signal(str, object)

    def __init__(
        self,
        window: QWidget,
        status_bar: QStatusBar,
        bar: MessageBar | None = None,
    ) -> None:
        super().__init__(window)
        self._window = window
        self._status = status_bar
        self._bar = bar
        self.error_box: QMessageBox | None = None
        self.history: list[tuple[str, Severity]] = []

    def set_message_bar(self, bar: MessageBar | None) -> None:
        self._bar = bar

    def info(self, text: str) -> None:
        # No timeout: a status stays until the next one, so it can still be read (or reached
        # by a screen reader) after a pause; ``history`` keeps the earlier ones.
        self._status.showMessage(text)
        self._record(text, Severity.INFO)

    def warning(self, text: str) -> None:
        if self._bar is not None:
            # The bar's sticky kind: a warning stays until the operator has read it.
            self._bar.show_message(text, "error")
        else:
            self._status.showMessage(text)
        self._record(text, Severity.WARNING)

    def error(self, text: str, title: str = "Taskdesk") -> None:
        self._status.showMessage(text)
        if self.error_box is not None:
            # One modal at a time: a burst of failures (a server going down) becomes the
            # latest message, not a stack of boxes to click through.
            self.error_box.setText(text)
        else:
            box = plain_message_box(QMessageBox.Icon.Warning, title, text, self._window)
            box.setStandardButtons(QMessageBox.StandardButton.Ok)
            box.setAccessibleName(title)
            box.finished.connect(self._on_error_box_closed)
            self.error_box = box
            box.open()
        self._record(text, Severity.ERROR)

    def show(self, message: UserMessage) -> None:
        """Show a message from the engine at its level."""
        if message.severity is Severity.ERROR:
            self.error(message.text)
        elif message.severity is Severity.WARNING:
            self.warning(message.text)
        else:
            self.info(message.text)

    def _on_error_box_closed(self) -> None:
        box, self.error_box = self.error_box, None
        if box is not None:
            box.deleteLater()

    def _record(self, text: str, severity: Severity) -> None:
        self.history.append((text, severity))
        del self.history[:-50]  # a bounded trail for tests and the About box, not a log
        log.log(logging.WARNING if severity is not Severity.INFO else logging.INFO, "%s", text)
        self.shown.emit(text, severity)


def scrub(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret (tokens) replaced, so logs never hold them."""
    return scrub_tokens(text, secrets, "[token]")


ExceptHook = Callable[[type[BaseException], BaseException, TracebackType | None], Any]


def install_excepthook(messages: Messages, secrets: Callable[[], Iterable[str]]) -> ExceptHook:
    """Show unexpected errors as a short message and log the traceback (tokens scrubbed).

    Returns the previous hook so it can be put back.
    """
    previous = sys.excepthook

    def hook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            previous(exc_type, exc, tb)
            return
        details = "".join(traceback.format_exception(exc_type, exc, tb))
        log.error("unexpected error\n%s", scrub(details, secrets()))
        messages.error(
            f"Something went wrong inside Taskdesk ({exc_type.__name__}). Your edits are "
            "kept; save them, and if this keeps happening send the log file to support."
        )

    sys.excepthook = hook
    return previous
