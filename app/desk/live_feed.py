"""LiveFeed: the server's live events for the window, and this person's presence for others.

It subscribes to ``GET /api/events`` where the server offers it and says what came as typed
signals: a colleague's save (``task_saved``: the open Task's session checks the server at
once, the same conditional GET as its 15 s poll, so a conflict shows before Save), a note
(``note_saved``), a proposal (``proposal_changed``), and who has which Task open
(``presence_changed``, ``colleagues(agent_id)``). ``org_changed`` fires after any save of a
Task or note: the hook for views that follow the org (the embed-status marks refresh there).

A dropped stream is opened again with ``Last-Event-ID``, so nothing is missed, after a
pause that grows (the session's poll goes on meanwhile, as it does on a server without
live events). Presence notifies, never locks: ``show_task(agent_id, editing)`` is posted
at once and every ``PRESENCE_EVERY_MS`` while the Task stays open.

The stream lives on a thread of its own, not the runner's: it is one request that lasts
for hours, and would hold a runner lane the whole time. Its events come to the GUI thread
through a queued signal; presence posts are short requests and go through the runner.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, QTimer, Signal

from app.client.errors import InvalidRequest, NotFound, TaskdeskError, Unauthorized
from app.desk.runner import Runner

if TYPE_CHECKING:
    from app.client.event_stream import LiveEvent
    from app.connect.connection import Connection

log = logging.getLogger(__name__)

PRESENCE_EVERY_MS = 20_000  # well inside the server's 60 s lapse
RECONNECT_PAUSES_S = (1.0, 2.0, 5.0, 10.0, 30.0)


class LiveMode(Enum):
    """Where the live updates stand."""

    CONNECTING = "connecting"
    LIVE = "live"  # the stream is open
    RECONNECTING = "reconnecting"  # it dropped; the poll covers until it is back
    UNAVAILABLE = "unavailable"  # the server has no live events: the poll alone
    STOPPED = "stopped"


class PresenceClient(Protocol):
    def post_presence(self, agent_id: str, *, editing: bool) -> None: ...


class Stream(Protocol):
    def open(self) -> None: ...
    def events(self) -> Any: ...  # Iterator[LiveEvent]
    def close(self) -> None: ...  # from any thread
    def release(self) -> None: ...  # on the stream's own thread


StreamFactory = Callable[[str, str, int | None], Stream]


def _event_stream(url: str, token: str, last_event_id: int | None) -> Stream:
    # Loaded with the first stream: its HTTP modules (~40 ms) are not on the way to the
    # window's first paint, which makes this feed.
    from app.client.event_stream import EventStream

    return EventStream(url, token, last_event_id=last_event_id)


@dataclass(frozen=True, slots=True)
class Colleague:
    """Someone else with an agent's Task open."""

    person_id: str
    name: str
    editing: bool
    since: datetime | None


def _when(text: object) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


class LiveFeed(QObject):
    """One server's live events and this window's presence there."""

    @classmethod
    def for_connection(cls, connection: Connection, runner: Runner, parent: QObject) -> LiveFeed:
        """The feed of a signed-in server, as its person."""
        return cls(
            url=connection.url,
            token=connection.token,
            me_id=connection.me.id,
            client=connection.client,
            runner=runner,
            parent=parent,
        )

    task_saved = Signal(str, int, str)  # agent id, version, by whom
    note_saved = Signal(str, int)  # display path, version
    proposal_changed = Signal(object)  # {id, agent_id, status}
    presence_changed = Signal(str)  # the agent whose colleagues changed
    org_changed = Signal()  # any Task or note saved: views that follow the org refresh
    mode_changed = Signal(object)  # LiveMode

    _arrived = Signal(object)  # from the stream's thread: a LiveEvent, or a LiveMode

    def __init__(
        self,
        *,
        url: str,
        token: str,
        me_id: str,
        client: PresenceClient,
        runner: Runner,
        stream_factory: StreamFactory = _event_stream,
        reconnect_pauses: tuple[float, ...] = RECONNECT_PAUSES_S,
        presence_every_ms: int = PRESENCE_EVERY_MS,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._url = url
        self._token = token
        self._me = me_id
        self._client = client
        self._runner = runner
        self._factory = stream_factory
        self._pauses = reconnect_pauses
        self.mode = LiveMode.STOPPED
        self.last_event_id: int | None = None  # read and written by the stream's thread
        self._present: dict[str, dict[str, Colleague]] = {}  # agent → person → colleague
        self._stop = threading.Event()
        # Held while the stream's thread emits or takes a new stream, and while stop() says
        # stop: after stop() nothing is emitted into this object (the window deletes it next)
        # and no stream is opened that stop() could not close.
        self._lock = threading.Lock()
        self._stream: Stream | None = None
        self._thread: threading.Thread | None = None
        self._arrived.connect(self._on_arrived)
        self._shown: tuple[str, bool] | None = None
        self._presence_offered = True
        self._presence_timer = QTimer(self)
        self._presence_timer.setInterval(presence_every_ms)
        self._presence_timer.timeout.connect(self._post_presence)

    # ------------------------------------------------------------------ the window's calls

    def start(self) -> None:
        if self._thread is not None:
            return
        self._set_mode(LiveMode.CONNECTING)
        self._thread = threading.Thread(target=self._follow, name="taskdesk-live", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Ends the stream and the presence posts (the server lets the presence lapse)."""
        with self._lock:
            self._stop.set()
            stream = self._stream
        if stream is not None:
            stream.close()
        self._presence_timer.stop()
        self._set_mode(LiveMode.STOPPED)

    def show_task(self, agent_id: str | None, *, editing: bool = False) -> None:
        """The Task open in this window now (None: none), and whether it has edits."""
        shown = None if agent_id is None else (agent_id, editing)
        if shown == self._shown:
            return
        self._shown = shown
        if shown is None:
            self._presence_timer.stop()
            return
        self._post_presence()
        self._presence_timer.start()

    def colleagues(self, agent_id: str) -> list[Colleague]:
        """Who else has the agent's Task open, editors first, then by name."""
        found = self._present.get(agent_id, {}).values()
        return sorted(found, key=lambda c: (not c.editing, c.name.casefold(), c.person_id))

    def edited_by_others(self) -> set[str]:
        """Agents whose Task someone else is editing now (the sidebar's mark)."""
        return {a for a, people in self._present.items() if any(c.editing for c in people.values())}

    # ------------------------------------------------------------------ presence posts

    def _post_presence(self) -> None:
        if self._shown is None or not self._presence_offered:
            return
        agent_id, editing = self._shown
        client = self._client
        self._runner.submit(
            lambda: client.post_presence(agent_id, editing=editing),
            on_done=lambda _none: None,
            on_error=self._on_presence_failed,
        )

    def _on_presence_failed(self, exc: BaseException) -> None:
        if isinstance(exc, (NotFound, InvalidRequest)):
            self._presence_offered = False  # a server without presence: stop asking
            self._presence_timer.stop()
        log.info("presence not posted: %s", exc)

    # ------------------------------------------------------------------ the stream's thread

    def _follow(self) -> None:
        failures = 0
        while True:
            stream = self._factory(self._url, self._token, self.last_event_id)
            with self._lock:
                if self._stop.is_set():
                    return
                self._stream = stream
            try:
                stream.open()
                failures = 0
                self._emit(LiveMode.LIVE)
                for event in stream.events():
                    if event.id is not None:
                        self.last_event_id = event.id
                    if not self._emit(event):
                        return
            except (NotFound, InvalidRequest):
                self._emit(LiveMode.UNAVAILABLE)  # the server has no live events
                return
            except Unauthorized:
                self._emit(LiveMode.STOPPED)  # the session's own calls say so
                return
            except TaskdeskError as exc:
                log.info("live updates dropped: %s", exc)
            finally:
                stream.close()
                stream.release()
            if not self._emit(LiveMode.RECONNECTING):
                return
            pause = self._pauses[min(failures, len(self._pauses) - 1)]
            failures += 1
            self._stop.wait(pause)

    def _emit(self, item: object) -> bool:
        """Hands an item to the GUI thread unless stopped; False once stopped."""
        with self._lock:
            if self._stop.is_set():
                return False
            self._arrived.emit(item)
            return True

    # ------------------------------------------------------------------ on the GUI thread

    def _on_arrived(self, item: object) -> None:
        if self._stop.is_set():
            return
        if isinstance(item, LiveMode):
            if item is LiveMode.LIVE:
                self._forget_presence()  # the new stream tells who is there afresh
            self._set_mode(item)
            return
        from app.client.event_stream import LiveEvent  # loaded by the stream that sent it

        if isinstance(item, LiveEvent):
            self._on_event(item)

    def _on_event(self, event: LiveEvent) -> None:
        data = event.data
        if event.name == "task_saved":
            agent_id, version = data.get("agent_id"), data.get("version")
            if isinstance(agent_id, str) and isinstance(version, int):
                self.task_saved.emit(agent_id, version, str(data.get("by_name") or ""))
                self.org_changed.emit()
        elif event.name == "note_saved":
            path, version = data.get("display_path"), data.get("version")
            if isinstance(path, str) and isinstance(version, int):
                self.note_saved.emit(path, version)
                self.org_changed.emit()
        elif event.name == "proposal":
            self.proposal_changed.emit(dict(data))
        elif event.name == "presence":
            self._on_presence(data)

    def _on_presence(self, data: dict[str, Any]) -> None:
        agent_id, person_id = data.get("agent_id"), data.get("person_id")
        if not isinstance(agent_id, str) or not isinstance(person_id, str) or person_id == self._me:
            return
        people = self._present.setdefault(agent_id, {})
        if data.get("present", True):
            people[person_id] = Colleague(
                person_id,
                str(data.get("name") or person_id),
                data.get("editing") is True,
                _when(data.get("since")),
            )
        else:
            people.pop(person_id, None)
        self.presence_changed.emit(agent_id)

    def _forget_presence(self) -> None:
        agents, self._present = list(self._present), {}
        for agent_id in agents:
            self.presence_changed.emit(agent_id)

    def _set_mode(self, mode: LiveMode) -> None:
        if mode is not self.mode:
            self.mode = mode
            self.mode_changed.emit(mode)


def presence_text(colleagues: list[Colleague], now: datetime | None = None) -> str:
    """The header's line: "Bo is editing this Task (since 2 min)", "Bo and Cy have it open"."""
    if not colleagues:
        return ""
    now = now or datetime.now(UTC)
    editors = [c for c in colleagues if c.editing]
    lead = editors[0] if editors else colleagues[0]
    others = len(colleagues) - 1
    verb = "is editing" if lead.editing else "has"
    what = "this Task" if lead.editing else "this Task open"
    since = f" ({_ago(lead.since, now)})" if lead.since is not None else ""
    more = f", and {others} more {'person' if others == 1 else 'people'} here" if others else ""
    return f"{lead.name} {verb} {what}{since}{more}"


def _ago(since: datetime, now: datetime) -> str:
    minutes = max(0, int((now - since).total_seconds() // 60))
    if minutes < 1:
        return "since a moment ago"
    if minutes < 60:
        return f"since {minutes} min"
    return f"since {minutes // 60} h"
