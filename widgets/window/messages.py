"""The one path for messages to the operator: status bar, message bar, or a modal for errors."""

from __future__ import annotations

import logging
import sys
import traceback
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QStatusBar, QWidget

from app.core.user_message import MessageKey, Severity, UserMessage, makes_untrue
from app.desk.failures import scrub_tokens
from widgets.common.plain_text import plain_message_box

if TYPE_CHECKING:  # the banners load with the Task tab, after the first paint
    from PySide6.QtWidgets import QMessageBox

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
        # The warnings that still hold, by subject, oldest first: the bar shows the newest,
        # and when a later event makes it untrue the one before it comes back.
        self._standing: dict[MessageKey, str] = {}
        self.history: list[tuple[str, Severity]] = []
        # What the status line shows now and its subject: a later event on that subject
        # (a new save, a failed connect) takes it away instead of leaving it to mislead.
        self._status_text = ""
        self._status_key = MessageKey.NONE

    def set_message_bar(self, bar: MessageBar | None) -> None:
        if self._bar is not None:
            self._bar.closed.disconnect(self._on_bar_closed)
        self._bar = bar
        self._standing.clear()
        if bar is not None:
            bar.closed.connect(self._on_bar_closed)

    def info(self, text: str, key: MessageKey = MessageKey.NONE) -> None:
        # No timeout: a status stays until the next one, so it can still be read (or reached
        # by a screen reader) after a pause; ``history`` keeps the earlier ones.
        self._show_status(text, key)
        self._record(text, Severity.INFO)

    def show_status(self, text: str, key: MessageKey) -> None:
        """A passing status about ``key`` ("Connecting to …"), not kept in the history."""
        self._show_status(text, key)

    def retract(self, key: MessageKey) -> None:
        """The status line's message about ``key`` no longer holds ("Saved as v6." once the
        next save is under way): it goes, unless a newer message has replaced it."""
        if key is not MessageKey.NONE and key is self._status_key:
            self._clear_status()

    def _show_status(self, text: str, key: MessageKey) -> None:
        self._status.showMessage(text)
        self._status_text, self._status_key = text, key

    def _clear_status(self) -> None:
        if self._status.currentMessage() == self._status_text:
            self._status.clearMessage()
        self._status_text, self._status_key = "", MessageKey.NONE

    def warning(self, text: str, key: MessageKey = MessageKey.NONE) -> None:
        """A warning that stays in the bar until read, or until ``withdraw(key)``."""
        self._standing.pop(key, None)
        self._standing[key] = text
        if self._bar is not None:
            # The bar's sticky kind: a warning stays until the operator has read it.
            self._bar.show_message(text, "error")
        else:
            self._show_status(text, key)
        self._record(text, Severity.WARNING)

    def error(self, text: str, title: str = "Taskdesk") -> None:
        self._show_status(text, MessageKey.NONE)  # until its box is closed
        if self.error_box is not None:
            # One modal at a time: a burst of failures (a server going down) becomes the
            # latest message, not a stack of boxes to click through.
            self.error_box.setText(text)
        else:
            from PySide6.QtWidgets import QMessageBox  # its enums: not before the first paint

            box = plain_message_box(QMessageBox.Icon.Warning, title, text, self._window)
            box.setStandardButtons(QMessageBox.StandardButton.Ok)
            box.setAccessibleName(title)
            box.finished.connect(self._on_error_box_closed)
            self.error_box = box
            box.open()
        self._record(text, Severity.ERROR)

    def show(self, message: UserMessage) -> None:
        """Show a message from the engine at its level; a note that makes a standing
        warning untrue (the server is back, the save landed) takes that warning away."""
        if message.severity is Severity.ERROR:
            self.error(message.text)
        elif message.severity is Severity.WARNING:
            self.warning(message.text, message.key)
        else:
            for key in [k for k in self._standing if makes_untrue(message, k)]:
                self.withdraw(key)
            self.info(message.text, message.key)

    def withdraw(self, key: MessageKey) -> None:
        """The warning about ``key`` no longer holds: it leaves the bar (an older one that
        still holds comes back)."""
        if key is MessageKey.NONE or self._standing.pop(key, None) is None:
            return
        if self._bar is None:
            return
        if self._standing:
            self._bar.show_message(next(reversed(self._standing.values())), "error")
        else:
            self._bar.dismiss()

    def _on_bar_closed(self) -> None:
        if self._bar is not None and not self._bar.isVisible():
            self._standing.clear()  # read and closed, or nothing left that holds

    def _on_error_box_closed(self) -> None:
        box, self.error_box = self.error_box, None
        if box is not None:
            if self._status_key is MessageKey.NONE and self._status_text == box.text():
                self._clear_status()  # read and closed: it does not stay under later actions
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


def install_excepthook(
    messages: Messages,
    secrets: Callable[[], Iterable[str]],
    log_path: str | Callable[[], str] = "",
) -> ExceptHook:
    """Show unexpected errors as a short message and log the traceback (tokens scrubbed);
    the message says where the log is (``log_path``, or a callable asked at the time: the
    file opens after the first paint), so it can be sent.

    Returns the previous hook so it can be put back.
    """
    previous = sys.excepthook

    def hook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            previous(exc_type, exc, tb)
            return
        path = log_path() if callable(log_path) else log_path
        where = f"the log file ({path})" if path else "the log file"
        details = "".join(traceback.format_exception(exc_type, exc, tb))
        log.error("unexpected error\n%s", scrub(details, secrets()))
        messages.error(
            f"Something went wrong inside Taskdesk ({exc_type.__name__}). Your edits are "
            f"kept; save them, and if this keeps happening send {where} to support."
        )

    sys.excepthook = hook
    return previous
