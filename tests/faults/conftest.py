"""Fixtures for the window-level fault tests: the real window, through a real fault proxy."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from PySide6.QtCore import QElapsedTimer, QObject, QTimer

from app.core.models import TaskDoc
from app.desk.session import TaskSession
from app.store import LocalStore
from tests.faultproxy import FaultProxy
from tests.live_server import LiveServer
from tests.window_steps import close_window, fresh_home, sign_in
from tests.window_steps import type_at_end as type_in_window
from widgets.task.task_tab import TaskTab
from widgets.window.main_window import MainWindow
from widgets.window.messages import Severity

__all__ = ["fresh_home"]

TIMEOUT_MS = 15_000
HEARTBEAT_MS = 5

# What an operator must never read: tracebacks, exception class names, library internals.
RAW_TEXT = re.compile(
    r"Traceback|HTTPConnectionPool|urllib3|requests\.\w|Max retries|Errno|object at 0x|<class "
    r"|\b[A-Z][A-Za-z]*(?:Error|Exception|Warning)\b|Something (?:unexpected )?went wrong"
)


def unclear_parts(text: str) -> list[str]:
    """What makes ``text`` an unclear message for an operator (empty: it is clear)."""
    problems = [m.group(0) for m in RAW_TEXT.finditer(text)]
    if len(text.strip()) < 12:
        problems.append(f"too short: {text!r}")
    return problems


class StallMeter(QObject):
    """A heartbeat on the GUI thread: does it keep beating while a request is in flight?

    Ticks every ``HEARTBEAT_MS``. A GUI thread that waited on the network could not tick
    while the answer is still arriving, so ``ticks_in_flight`` (ticks while ``in_flight()``
    says a request is under way) is the behaviour to check. The longest gap between ticks
    (``worst_ms``, the worst freeze) is a figure to print: it depends on the machine's load.
    """

    def __init__(self) -> None:
        super().__init__()
        self._clock = QElapsedTimer()
        self._timer = QTimer(self)
        self._timer.setInterval(HEARTBEAT_MS)
        self._timer.timeout.connect(self._tick)
        self._last = 0
        self._in_flight: Callable[[], bool] = lambda: False
        self.worst_ms = 0
        self.ticks = 0
        self.ticks_in_flight = 0

    def start(self, in_flight: Callable[[], bool] = lambda: False) -> None:
        self._clock.start()
        self._in_flight = in_flight
        self._last = 0
        self.worst_ms = 0
        self.ticks = 0
        self.ticks_in_flight = 0
        self._timer.start()

    def _tick(self) -> None:
        now = self._clock.elapsed()
        self.worst_ms = max(self.worst_ms, now - self._last)
        self._last = now
        self.ticks += 1
        if self._in_flight():
            self.ticks_in_flight += 1

    def stop(self) -> int:
        self._tick()  # the time since the last tick counts too
        self._timer.stop()
        return self.worst_ms


@dataclass
class Desk:
    """One operator's window on the server, through the proxy, and what tests check it with."""

    window: MainWindow
    proxy: FaultProxy
    server: LiveServer
    home: Path
    meter: StallMeter = field(default_factory=StallMeter)
    closed: bool = False

    def close(self) -> None:
        """The operator quits (no questions: what is unsaved stays as a draft)."""
        close_window(self.window)
        self.closed = True

    @property
    def tab(self) -> TaskTab:
        return self.window.task_tab

    @property
    def live(self) -> TaskDoc:
        """The live Task the open agent's session knows."""
        live = self.tab.state.live
        assert live is not None, "no Task has arrived yet"
        return live

    @property
    def session(self) -> TaskSession:
        session = self.tab.session
        assert session is not None, "not connected"
        return session

    @property
    def server_key(self) -> str:
        return self.window.connection.server_key

    def messages_since(self, count: int) -> list[tuple[str, Severity]]:
        return list(self.window.messages.history[count:])

    def draft_text(self, agent_id: str) -> str | None:
        with LocalStore(self.home / "data" / "store.sqlite3") as store:
            draft = store.get_draft(self.server_key, agent_id)
        return draft.text if draft is not None else None


@pytest.fixture
def make_desk(qtbot, fresh_home: Path, live_server: LiveServer) -> Iterator[Callable[..., Desk]]:
    """Builds an unconnected window and a proxy in front of the live server."""
    made: list[Desk] = []

    def make(proxy: FaultProxy | None = None, server: LiveServer | None = None) -> Desk:
        """A new window; ``proxy``: the same server address as an earlier window's;
        ``server``: another server than the basic one."""
        server = server or live_server
        if proxy is None:
            proxy = FaultProxy(server.url)
            proxy.start()
        window = MainWindow(data_dir=fresh_home / "data")
        window.show()
        desk = Desk(window, proxy, server, fresh_home)
        made.append(desk)
        return desk

    yield make
    for desk in made:
        # The proxy goes first: it cuts slow and endless answers, so no request of the
        # window is left waiting on it while the window lets its background work finish.
        desk.proxy.stop()  # stopping twice (a shared proxy) is harmless
        if not desk.closed:
            close_window(desk.window)
        desk.window.deleteLater()


def connect(qtbot, desk: Desk, who: str = "ann") -> None:
    """Sign in through the proxy and wait until the first agent's Task is on screen."""
    sign_in(qtbot, desk.window, desk.proxy.url, desk.server.token(who))


@pytest.fixture
def desk(qtbot, make_desk: Callable[..., Desk]) -> Desk:
    """Ann's window, through the proxy, with Scout open."""
    made = make_desk()
    connect(qtbot, made)
    return made


def type_at_end(qtbot, desk: Desk, text: str) -> str:
    """Edit mode, type ``text`` at the end of the open Task; returns the editor's text."""
    return type_in_window(qtbot, desk.window, text)
