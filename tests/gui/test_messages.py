"""The one path for messages: levels go to the right place; unexpected errors never leak tokens."""

from __future__ import annotations

import logging
import sys

import pytest
from PySide6.QtWidgets import QMainWindow

from app.core.user_message import error, info, warning
from widgets.window.banners import MessageBar
from widgets.window.messages import Messages, Severity, install_excepthook, scrub


@pytest.fixture
def messages(qtbot) -> Messages:
    window = QMainWindow()
    qtbot.addWidget(window)
    bar = MessageBar()
    window.setCentralWidget(bar)
    window.show()
    return Messages(window, window.statusBar(), bar)


def test_info_goes_to_the_status_bar(messages: Messages) -> None:
    messages.show(info("Saved as v4."))
    assert messages._status.currentMessage() == "Saved as v4."
    assert messages.error_box is None
    assert not messages._bar.isVisible()


def test_warning_goes_to_the_message_bar_and_stays(messages: Messages) -> None:
    messages.show(warning("Save or discard your edits first."))
    assert messages._bar.isVisible()
    assert messages._bar.text() == "Save or discard your edits first."


def test_errors_open_one_modal_that_shows_the_latest(qtbot, messages: Messages) -> None:
    messages.show(error("The server refused the change."))
    box = messages.error_box
    assert box is not None and box.isVisible()
    messages.show(error("The server cannot be reached."))
    assert messages.error_box is box  # not a stack of boxes
    assert box.text() == "The server cannot be reached."
    with qtbot.waitSignal(box.finished):
        box.accept()
    assert messages.error_box is None
    assert [s for _, s in messages.history] == [Severity.ERROR, Severity.ERROR]


def test_scrub_removes_every_secret() -> None:
    assert scrub("Bearer ann-secret and ann-secret", ["ann-secret", ""]) == (
        "Bearer [token] and [token]"
    )


def test_excepthook_shows_a_short_message_and_logs_without_the_token(
    messages: Messages, caplog: pytest.LogCaptureFixture
) -> None:
    previous = install_excepthook(messages, lambda: ["ann-secret"])
    hook = sys.excepthook
    sys.excepthook = previous  # keep pytest-qt's own hook in charge after this test
    try:
        raise RuntimeError("request with Authorization: Bearer ann-secret failed")
    except RuntimeError as exc:
        with caplog.at_level(logging.ERROR, logger="taskdesk"):
            hook(type(exc), exc, exc.__traceback__)
    assert messages.error_box is not None
    shown = messages.error_box.text()
    assert "RuntimeError" in shown and "ann-secret" not in shown
    assert "Traceback" not in shown
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "Traceback" in logged and "[token]" in logged
    assert "ann-secret" not in logged
    messages.error_box.accept()


def test_the_unexpected_error_says_where_the_log_file_is(messages: Messages) -> None:
    previous = install_excepthook(messages, list, "/home/ann/.local/state/taskdesk/taskdesk.log")
    hook = sys.excepthook
    sys.excepthook = previous
    try:
        raise RuntimeError("Internal C++ object (QLabel) already deleted")
    except RuntimeError as exc:
        hook(type(exc), exc, exc.__traceback__)
    assert messages.error_box is not None
    assert "send the log file (/home/ann/.local/state/taskdesk/taskdesk.log) to support" in (
        messages.error_box.text()
    )
    messages.error_box.accept()
