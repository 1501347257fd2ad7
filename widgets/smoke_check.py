"""`taskdesk --smoke`: open the window, check the first agent's Task is really on screen, quit.

It proves an install works end to end: the window paints, the server (the embedded default
unless --server says otherwise) answers, and the Task the server holds is the text on screen,
painted. Exit 0 once it is; 1, with one line saying what was missing, when it isn't in time.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QPoint, QRect, QTimer
from PySide6.QtGui import QGuiApplication, QImage
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QTextEdit, QWidget

if TYPE_CHECKING:
    from widgets.window.main_window import MainWindow

POLL_MS = 100
SETTLE_MS = 300
"""After the text is found, wait this long so the screenshot shows it painted, not pending."""

_LEADING_MARKS = re.compile(r"^\s*(?:#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)*")
_INLINE_MARKUP = re.compile(r"[*_`\[\]!<>|\\&]")


def visible_line(markdown: str) -> str | None:
    """A line of the Task that reads the same rendered as written, to look for on screen.

    Headings, quotes and list items lose their leading marks when rendered; a line with
    inline markup (emphasis, links, embeds) reads differently, so it is passed over.
    """
    for raw in markdown.splitlines():
        line = _LEADING_MARKS.sub("", raw).strip()
        if len(line) >= 3 and not _INLINE_MARKUP.search(line):
            return line
    return None


def is_blank(image: QImage, region: QRect | None = None) -> bool:
    """True when (the region of) the image is one flat colour: nothing painted there.

    Text leaves many pixels off the background colour; a flat or empty area leaves almost
    none. Sampled on a grid, so a full window takes a few milliseconds.
    """
    area = image.rect() if region is None else region.intersected(image.rect())
    if area.isEmpty():
        return True
    counts: dict[int, int] = {}
    step = 2
    for y in range(area.top(), area.bottom() + 1, step):
        for x in range(area.left(), area.right() + 1, step):
            rgb = image.pixel(x, y)
            counts[rgb] = counts.get(rgb, 0) + 1
    total = sum(counts.values())
    return len(counts) < 3 or max(counts.values()) > total * 0.998


def _text_widgets(window: QWidget) -> list[QWidget]:
    found: list[QWidget] = []
    found.extend(window.findChildren(QTextEdit))
    found.extend(window.findChildren(QPlainTextEdit))
    return found


def widget_showing(window: QWidget, text: str) -> QWidget | None:
    """The visible text widget of ``window`` whose text contains ``text``, if any."""
    for widget in _text_widgets(window):
        shown = widget.toPlainText()  # type: ignore[attr-defined]
        if widget.isVisible() and not widget.visibleRegion().isEmpty() and text in shown:
            return widget
    return None


def grab_window(window: QWidget) -> tuple[QImage, QPoint]:
    """What the screen shows of the window, and where its contents start in that image.

    On X11 the pixels come from the X server itself (a real screenshot, frame included);
    elsewhere (offscreen, Wayland) the window renders itself.
    """
    screen = window.screen()
    if QGuiApplication.platformName() == "xcb" and screen is not None:
        frame = window.frameGeometry()
        origin = screen.geometry().topLeft()
        pixmap = screen.grabWindow(
            0, frame.x() - origin.x(), frame.y() - origin.y(), frame.width(), frame.height()
        )
        if not pixmap.isNull():
            return pixmap.toImage(), window.geometry().topLeft() - frame.topLeft()
    return window.grab().toImage(), QPoint(0, 0)


class SmokeCheck(QObject):
    """Watches ``window`` until its first agent's Task is on screen, then closes it."""

    def __init__(
        self,
        app: QApplication,
        window: MainWindow,
        *,
        screenshot: Path | None = None,
        timeout_s: float = 90.0,
    ) -> None:
        super().__init__(window)
        self.app = app
        self.window = window
        self.screenshot = screenshot
        self.started = time.monotonic()
        self.timeout_s = timeout_s
        self.passed: bool | None = None
        self.line: str | None = None
        self.agent_name = ""
        self.task_bytes = 0
        self._waiting_for = "the window to connect and open an agent"
        self._poll = QTimer(self)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self._guarded(self._check_shown))
        self._deadline = QTimer(self)
        self._deadline.setSingleShot(True)
        self._deadline.timeout.connect(self._guarded(self._timed_out))
        self._deadline.start(int(timeout_s * 1000))
        window.agent_opened.connect(self._guarded(self.on_agent_opened))

    def on_agent_opened(self, agent_id: str) -> None:
        """Read the Task from the server ourselves (off the GUI thread) to compare."""
        if self.passed is not None or self.line is not None:
            return
        connection: Any = self.window.connection
        if connection is None:
            self._fail("an agent opened without a connection")
            return
        self.agent_name = next((a.name for a in connection.agents if a.id == agent_id), agent_id)
        self._waiting_for = f"the Task of {self.agent_name} from the server"
        client = connection.client
        self.window.runner.submit(
            lambda: client.get_task(agent_id),
            on_done=self._guarded(self._on_server_task),
            on_error=lambda exc: self._fail(f"the server's Task could not be read: {exc}"),
        )

    def _on_server_task(self, doc: Any) -> None:
        content: str = doc.content
        self.task_bytes = len(content.encode("utf-8"))
        line = visible_line(content)
        if line is None:
            self._fail(f"the Task of {self.agent_name} has no plain line to look for on screen")
            return
        self.line = line
        self._waiting_for = f"“{line}” painted in the window"
        self._poll.start()

    def _check_shown(self) -> None:
        assert self.line is not None
        widget = widget_showing(self.window, self.line)
        if widget is None or self.agent_name not in self.window.windowTitle():
            return
        self._poll.stop()
        QTimer.singleShot(SETTLE_MS, self._guarded(lambda: self._check_painted(widget)))

    def _check_painted(self, widget: QWidget) -> None:
        if self.passed is not None:
            return
        image, contents_origin = grab_window(self.window)
        area = QRect(widget.mapTo(self.window, QPoint(0, 0)) + contents_origin, widget.size())
        if is_blank(image, area):
            self._poll.start()  # not painted yet: look again until the deadline
            return
        if self.screenshot is not None and not image.save(str(self.screenshot)):
            self._fail(f"the screenshot could not be written to {self.screenshot}")
            return
        seconds = time.monotonic() - self.started
        saved = f"; screenshot {self.screenshot}" if self.screenshot is not None else ""
        line = self.line or ""
        line = line if len(line) <= 48 else line[:47] + "…"
        print(
            f"taskdesk: smoke check passed in {seconds:.1f} s: the Task of {self.agent_name} "
            f"({self.task_bytes} bytes) is on screen, “{line}” painted{saved}",
            flush=True,
        )
        self.passed = True
        self._deadline.stop()
        self.window.close()  # the normal way out: drafts kept, the local server stopped

    def _timed_out(self) -> None:
        status = self.window.statusBar().currentMessage()
        said = f" (the status bar says: {status})" if status else ""
        self._fail(
            f"no Task on screen after {self.timeout_s:.0f} s: waited for {self._waiting_for}{said}"
        )

    def _guarded(self, slot: Callable[..., None]) -> Callable[..., None]:
        """``slot``, failing the check on any error: the window's own exception hook would
        only show it in the window, and the check would wait out its deadline."""

        def run(*args: Any) -> None:
            try:
                slot(*args)
            except Exception as exc:
                self._fail(f"{type(exc).__name__}: {exc}")

        return run

    def _fail(self, reason: str) -> None:
        if self.passed is not None:
            return
        self.passed = False
        self._poll.stop()
        self._deadline.stop()
        print(f"taskdesk: smoke check failed: {reason}", file=sys.stderr, flush=True)
        self.app.exit(1)
