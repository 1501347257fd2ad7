"""The real Taskdesk window, started as the launcher starts it, typing until it is killed.

Run as ``python -m tests.crash.typing_app --server URL --agent ID --keylog FILE --seed N``
with ``TASKDESK_TOKEN`` and ``TASKDESK_HOME`` set. It reports on standard output, one JSON
object a line:

- ``{"event": "offer", ...}``: the draft the window offers after a crash (agent, base version,
  time, the banner's words, the text), then ``{"event": "recovered", ...}`` once Recover has
  put it in the editor; or ``{"event": "no_offer", ...}`` with the text the editor shows;
- ``{"event": "typing"}``: keystrokes have started (unless ``--no-typing``).

Each keystroke appends ``<monotonic seconds> <length> <sha256 of the editor text> <key>`` to
the key log, written unbuffered, so whoever kills this process knows what the editor held
and when. The first line is the text before any keystroke (key ``null``). Problems go to
standard error and exit 3: the parent fails with them instead of waiting.
"""

from __future__ import annotations

import argparse
import faulthandler
import hashlib
import json
import os
import random
import signal
import sys
import time
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from app.desk.session_state import SessionState
from widgets.launcher import open_window, prepare_application
from widgets.window.main_window import MainWindow

READY_TIMEOUT_MS = 30_000
"""Sign-in, the Task and the draft lookup must all have arrived by then (``--ready-timeout-ms``)."""

WORDS = (
    "watch", "the", "queue", "flag", "tickets", "reply", "short", "café", "über", "straße",
    "næste", "rule", "every", "hour", "customer", "escalate", "never", "guess", "ask", "Ann",
)  # fmt: skip
"""Words the operator types: ASCII and a few non-ASCII letters (limits count UTF-8 bytes)."""


def sha_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def emit(event: str, **fields: Any) -> None:
    print(json.dumps({"event": event, **fields}), flush=True)


def fail(message: str) -> None:
    print(f"typing_app: {message}", file=sys.stderr, flush=True)
    os._exit(3)  # at once: no close dialog, no draft written on the way out


def key_code(char: str) -> Qt.Key:
    """The key that types ``char``: Qt numbers Latin-1 keys by their capital letter."""
    upper = char.upper()
    return Qt.Key(ord(upper if len(upper) == 1 else char))


class KeyStream:
    """The keys one operator types: words, spaces and now and then Return."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._pending: list[str] = []

    def next_key(self) -> str:
        if not self._pending:
            word = self._rng.choice(WORDS)
            end = "\n" if self._rng.random() < 0.15 else " "
            self._pending = [*word, end]
        return self._pending.pop(0)


class TypingDriver:
    """Waits for the window to be ready, answers the draft offer, then types on a timer."""

    def __init__(self, window: MainWindow, options: argparse.Namespace) -> None:
        self.window = window
        self.options = options
        self.rng = random.Random(options.seed)
        self.keys = KeyStream(self.rng)
        self.drafts_listed = False
        self.started = False
        self.keylog = os.open(options.keylog, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self.timer = QTimer()
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self.type_one)
        window.connected.connect(self.on_connected)
        QTimer.singleShot(options.ready_timeout_ms, self.on_ready_timeout)

    def on_connected(self) -> None:
        session = self.window.task_tab.session
        assert session is not None
        # The draft list is read on the disk lane after the agent's own draft: once it is
        # here, the session has looked at its draft and can be judged.
        session.drafts_found.connect(self.on_drafts_found)
        session.state_changed.connect(self.on_state)

    def on_drafts_found(self, _drafts: object) -> None:
        self.drafts_listed = True
        self.check_ready()

    def on_state(self, _state: SessionState) -> None:
        self.check_ready()

    def check_ready(self) -> None:
        tab = self.window.task_tab
        state = tab.state
        fresh = state.live is not None and not state.loading and not state.from_cache
        if self.started or not self.drafts_listed or not fresh:
            return
        self.started = True
        if state.agent_id != self.options.agent:
            fail(f"the window opened {state.agent_id!r}, not {self.options.agent!r}")
        QTimer.singleShot(0, self.answer_offer)

    def answer_offer(self) -> None:
        tab = self.window.task_tab
        state = tab.state
        offer = state.draft
        if offer is None:
            text = tab.editor.text()
            emit("no_offer", sha=sha_of(text), length=len(text), text=text)
        else:
            if not tab.draft_banner.isVisible():
                fail("a draft is offered but its banner is hidden")
            emit(
                "offer",
                agent_id=offer.agent_id,
                base_version=offer.base_version,
                saved_at=offer.saved_at,
                live_version=state.live.version if state.live else None,
                banner=tab.draft_banner.text(),
                banner_time=tab.draft_banner.toolTip(),
                sha=sha_of(offer.text),
                length=len(offer.text),
                text=offer.text,
            )
            tab.draft_banner.recover_button.click()
            text = tab.editor.text()
            emit(
                "recovered",
                sha=sha_of(text),
                length=len(text),
                dirty=tab.state.dirty,
                banner_hidden=not tab.draft_banner.isVisible(),
            )
        if self.options.no_typing:
            return
        self.window.actions_.edit.trigger()
        editor = tab.editor
        editor.moveCursor(QTextCursor.MoveOperation.End)
        self.log(None)
        emit("typing")
        self.timer.start(self.interval())

    def interval(self) -> int:
        return self.rng.randint(self.options.min_ms, self.options.max_ms)

    def type_one(self) -> None:
        editor = self.window.task_tab.editor
        key = self.keys.next_key()
        if key == "\n":
            QTest.keyClick(editor, Qt.Key.Key_Return)  # keyClicks with a newline aborts Qt
        else:
            # keyClicks asserts on letters outside ASCII (é, ß): send the key with its text.
            QTest.sendKeyEvent(
                QTest.KeyAction.Click, editor, key_code(key), key, Qt.KeyboardModifier.NoModifier
            )
        self.log(key)
        self.timer.start(self.interval())

    def log(self, key: str | None) -> None:
        text = self.window.task_tab.editor.text()
        line = f"{time.monotonic():.6f} {len(text)} {sha_of(text)} {json.dumps(key)}\n"
        os.write(self.keylog, line.encode("utf-8"))

    def on_ready_timeout(self) -> None:
        if not self.started:
            state = self.window.task_tab.state if self.window.connection else None
            fail(
                f"not ready after {self.options.ready_timeout_ms} ms (connected: "
                f"{self.window.connection is not None}, drafts listed: {self.drafts_listed}, "
                f"state: {state}, status: {self.window.statusBar().currentMessage()!r}, "
                f"message: {self.window.task_tab.message_bar.text()!r})"
            )


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="typing_app")
    parser.add_argument("--server", required=True)
    parser.add_argument("--agent", required=True)
    parser.add_argument("--keylog", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--min-ms", type=int, default=20)
    parser.add_argument("--max-ms", type=int, default=60)
    parser.add_argument("--ready-timeout-ms", type=int, default=READY_TIMEOUT_MS)
    parser.add_argument("--no-typing", action="store_true", help="report the offer, then idle")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    options = parse_arguments(sys.argv[1:] if argv is None else argv)
    if not os.environ.get("TASKDESK_HOME") or not os.environ.get("TASKDESK_TOKEN"):
        fail("TASKDESK_HOME and TASKDESK_TOKEN must be set")
    # A hung start is reported with every thread's stack (the parent sends SIGUSR1).
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    app = QApplication(sys.argv[:1])
    prepare_application(app)
    # The launcher's own path: the window, then start-up after the first paint.
    window = open_window(app, options.server)
    driver = TypingDriver(window, options)
    code = app.exec()
    del driver
    return code


if __name__ == "__main__":
    raise SystemExit(main())
