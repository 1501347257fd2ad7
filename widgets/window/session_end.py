"""The desktop session ending (SIGTERM, logout, shutdown): keep the draft and quit, never ask.

Nobody is there to answer an "Unsaved changes" question when the session ends, and a window
waiting on one is killed a few seconds later anyway. The unsaved text is already a draft on
disk (the session writes it as the operator types); closing writes the last keystrokes, and
the draft is offered back on the next start.
"""

from __future__ import annotations

import signal
from types import FrameType

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QGuiApplication, QSessionManager

from widgets.window.main_window import MainWindow


class SessionEnd(QObject):
    """Quits the app keeping the draft when the session ends; Ctrl+C still closes normally."""

    def __init__(self, app: QGuiApplication, window: MainWindow) -> None:
        super().__init__(app)
        self._window = window
        self.ended = False
        app.commitDataRequest.connect(self.on_commit_data)
        app.aboutToQuit.connect(self.on_about_to_quit)

    def install_signals(self) -> None:
        """SIGTERM ends the session; SIGINT (Ctrl+C) closes the window the normal way."""
        signal.signal(signal.SIGTERM, self.on_sigterm)
        signal.signal(signal.SIGINT, self.on_sigint)
        # Python runs signal handlers only between bytecodes: a slow idle timer gives it the
        # chance while Qt waits for events.
        wake = QTimer(self)
        wake.timeout.connect(lambda: None)
        wake.start(250)

    def on_sigterm(self, _signum: int, _frame: FrameType | None) -> None:
        QTimer.singleShot(0, self.end)

    def on_sigint(self, _signum: int, _frame: FrameType | None) -> None:
        QTimer.singleShot(0, self._window.close)

    def on_commit_data(self, _manager: QSessionManager) -> None:
        self.end()

    def on_about_to_quit(self) -> None:
        self._window.keep_draft()

    def end(self) -> None:
        """Keep the draft and quit, closing any question left open."""
        self.ended = True
        self._window.quit_keeping_draft()
