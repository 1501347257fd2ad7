"""DraftKeeper: when the editor text is written as a draft, and the drafts on this computer."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QObject, Qt, QTimer

from app.core.models import TaskDoc
from app.core.user_message import UserMessage
from app.desk import session_messages as say
from app.desk.note_drafts import is_note_draft
from app.desk.runner import Runner
from app.store.records import Cached, Draft, HistoryEntry, HistoryReason

log = logging.getLogger(__name__)

DRAFT_DEBOUNCE_MS = 700
"""A draft is written this long after the last keystroke…"""
DRAFT_MAX_WAIT_MS = 800  # leaves the write and a late timer inside the 1 s promise
"""…or at the latest this long after the first unsaved one, so steady typing is kept too."""


class DraftStore(Protocol):
    """What the session needs of ``app.store.LocalStore``."""

    def save_draft(
        self,
        server: str,
        agent_id: str,
        text: str,
        base_version: int | None,
        *,
        agent_name: str = "",
    ) -> Draft: ...

    def get_draft(self, server: str, agent_id: str) -> Draft | None: ...

    def list_drafts(self, server: str | None = None) -> list[Draft]: ...

    def remove_draft(self, server: str, agent_id: str, confirmed_text: str) -> bool: ...

    def discard_draft(
        self,
        server: str,
        agent_id: str,
        text: str,
        reason: str,
        base_version: int | None,
        *,
        agent_name: str = "",
    ) -> HistoryEntry:
        """Keeps ``text`` in local history and drops the draft, in one transaction."""
        ...

    def put_task(self, server: str, doc: TaskDoc) -> None: ...

    def get_task(self, server: str, agent_id: str) -> Cached[TaskDoc] | None: ...


def _ignore(_: object) -> None:
    pass


class DraftKeeper(QObject):
    """The draft timers and the draft store of one server, for a Task session.

    ``note_keystroke()`` (cheap: two timer calls) arms the timers; when one fires,
    ``on_due`` is called and the session writes the draft through ``write``. Drafts left
    from an earlier session are found (``find_drafts``) and, when the operator dismisses
    one, kept in local history (``keep_in_history``). The store work runs on the runner's
    disk lane, in order; a failure becomes a message for ``on_failure`` that says what
    could not be done.
    """

    def __init__(
        self,
        *,
        store: DraftStore,
        runner: Runner,
        server_key: str,
        on_due: Callable[[], None],
        on_failure: Callable[[UserMessage], None],
        debounce_ms: int = DRAFT_DEBOUNCE_MS,
        max_wait_ms: int = DRAFT_MAX_WAIT_MS,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._store = store
        self._runner = runner
        self._server = server_key
        self._on_failure = on_failure
        self._debounce = self._timer(debounce_ms, on_due)
        self._max_wait = self._timer(max_wait_ms, on_due)

    def _timer(self, interval_ms: int, slot: Callable[[], None]) -> QTimer:
        timer = QTimer(self)
        timer.setSingleShot(True)
        # Coarse timers may fire 5% late; the draft promise (on disk within 1 s) has no slack.
        timer.setTimerType(Qt.TimerType.PreciseTimer)
        timer.setInterval(interval_ms)
        timer.timeout.connect(slot)
        return timer

    # ------------------------------------------------------------------ when

    def note_keystroke(self) -> None:
        """Restarts the pause timer; starts the max-wait timer on the first unsaved keystroke."""
        self._debounce.start()
        if not self._max_wait.isActive():
            self._max_wait.start()

    def stop_timers(self) -> None:
        self._debounce.stop()
        self._max_wait.stop()

    # ------------------------------------------------------------------ the store

    def write(self, agent_id: str, text: str, base_version: int | None, agent_name: str) -> None:
        """Keeps ``text`` as the agent's draft, replacing any earlier one."""
        store, server = self._store, self._server
        self._to_disk(
            lambda: store.save_draft(server, agent_id, text, base_version, agent_name=agent_name),
            "save the draft",
        )

    def remove(self, agent_id: str, confirmed_text: str) -> None:
        """Drops the draft only if it holds exactly ``confirmed_text`` (the store checks)."""
        store, server = self._store, self._server
        self._to_disk(
            lambda: store.remove_draft(server, agent_id, confirmed_text), "remove the saved draft"
        )

    def keep_in_history(
        self,
        agent_id: str,
        text: str,
        reason: HistoryReason,
        base_version: int | None,
        agent_name: str,
        *,
        action: str,
        then: Callable[[], None] | None = None,
    ) -> None:
        """Moves ``text`` to local history and drops the draft; ``then`` once it is there."""
        store, server = self._store, self._server
        self._runner.submit(
            lambda: store.discard_draft(
                server, agent_id, text, reason, base_version, agent_name=agent_name
            ),
            on_done=_ignore if then is None else lambda _: then(),
            on_error=self._failed(action),
            lane="disk",
        )

    def find_drafts(self, found: Callable[[list[Draft]], object]) -> None:
        """The drafts of this server's agents, newest first, for ``found``."""
        store, server = self._store, self._server
        self._runner.submit(
            # A note's drafts are its editor's (note_drafts), not an agent's.
            lambda: [d for d in store.list_drafts(server) if not is_note_draft(d)],
            on_done=found,
            on_error=self._failed("read the drafts"),
            lane="disk",
        )

    def _to_disk(self, work: Callable[[], object], action: str) -> None:
        """On the disk lane; once the runner has shut down (a timer firing as the window
        closes), here and now: a draft write is never dropped, and a few rows of SQLite are
        no wait worth losing the text over."""
        if not self._runner.closed:
            self._runner.submit(work, on_done=_ignore, on_error=self._failed(action), lane="disk")
            return
        self.stop_timers()
        try:
            work()
        except Exception:  # the window is going: the log is all that is left to tell
            log.exception("could not %s while closing", action)

    def _failed(self, action: str) -> Callable[[BaseException], None]:
        def report(exc: BaseException) -> None:
            self._on_failure(say.store_failed(exc, action))

        return report
