"""TaskSession: one open agent's Task from load to save, through conflicts and offline spells.

The rule it exists for: never lose a word. Every text that leaves the editor goes to the
server (confirmed byte for byte), to a draft, or to local history first.

How the window uses it:
- ``open(agent_id)``, then put each ``task_loaded`` TaskDoc's content (or each
  ``text_restored`` string) into the editor, synchronously inside the slot. ``note_edited()``
  calls made while the session replaces the text are ignored.
- call ``note_edited()`` on every change of the editor text (cheap: no I/O, no O(n) work);
- ``save()``, ``discard()`` / ``undo_discard()``, ``keep_mine()`` / ``use_theirs()``,
  ``restore(version)``, ``recover_draft()`` / ``dismiss_draft()``, ``retry_now()``;
- draw ``state_changed`` (a SessionState) and show ``message`` (a UserMessage);
- ``has_unsaved()`` before leaving on every path, ``close()`` when the tab goes.

All network and disk work goes through the Runner; callbacks come back on the GUI thread.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from app.client.errors import (
    BadResponse,
    Offline,
    RateLimited,
    SaveUncertain,
    ServerError,
    TaskdeskError,
    VersionConflict,
)
from app.core import user_message
from app.core.limits import TASK_MAX_BYTES, utf8_len
from app.core.models import TaskDoc
from app.core.user_message import MessageKey
from app.desk.failures import failure_text
from app.desk.retry_backoff import RetryBackoff
from app.desk.runner import Runner
from app.desk.session_state import DraftOffer, SessionState
from app.store.errors import StoreError
from app.store.records import HistoryReason

log = logging.getLogger(__name__)

DRAFT_DEBOUNCE_MS = 700
"""A draft is written this long after the last keystroke…"""
DRAFT_MAX_WAIT_MS = 800  # leaves the write and a late timer inside the 1 s promise
"""…or at the latest this long after the first unsaved one, so steady typing is kept too."""
POLL_INTERVAL_MS = 15_000
"""A conditional GET this often finds another save while the operator edits (304: free)."""


class TaskClient(Protocol):
    """What the session needs of ``app.client.TaskdeskClient``."""

    def get_task(self, agent_id: str) -> TaskDoc: ...

    def put_task(self, agent_id: str, content: str, expected_version: int | None) -> TaskDoc: ...


class DraftStore(Protocol):
    """What the session needs of ``app.store.LocalStore``."""

    def save_draft(
        self, server: str, agent_id: str, text: str, base_version: int | None, **kw: Any
    ) -> Any: ...

    def get_draft(self, server: str, agent_id: str) -> Any: ...

    def list_drafts(self, server: str | None = None) -> list[Any]: ...

    def remove_draft(self, server: str, agent_id: str, confirmed_text: str) -> Any: ...

    def discard_draft(
        self,
        server: str,
        agent_id: str,
        text: str,
        reason: str,
        base_version: int | None,
        **kw: Any,
    ) -> Any:
        """Keeps ``text`` in local history and drops the draft, in one transaction."""

    def put_task(self, server: str, doc: TaskDoc) -> Any: ...

    def get_task(self, server: str, agent_id: str) -> Any: ...


def utc_now() -> datetime:
    return datetime.now(UTC)


def _iso(moment: Any) -> str:
    if isinstance(moment, datetime):
        return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    return str(moment)


def _kb(n_bytes: int) -> str:
    return f"{n_bytes / 1024:,.1f} KB"


@dataclass(frozen=True, slots=True)
class _Put:
    """One PUT in flight: what was sent, on which version, and the edit count when sent."""

    gen: int
    agent_id: str
    text: str
    expected: int | None
    edit_seq: int
    restoring: int | None = None  # the version being restored, for a restore


class TaskSession(QObject):
    """Load → edit → save → conflict → offline for one open agent (``open`` switches agent)."""

    state_changed = Signal(object)  # SessionState
    task_loaded = Signal(object)  # TaskDoc whose content replaces the editor text
    text_restored = Signal(str)  # unsaved text (a draft, an undone discard) for the editor
    message = Signal(object)  # UserMessage
    drafts_found = Signal(object)  # list of the store's drafts for this server

    def __init__(
        self,
        *,
        client: TaskClient,
        store: DraftStore,
        runner: Runner,
        server_key: str,
        text_source: Callable[[], str],
        clock: Callable[[], datetime] = utc_now,
        draft_debounce_ms: int = DRAFT_DEBOUNCE_MS,
        draft_max_wait_ms: int = DRAFT_MAX_WAIT_MS,
        poll_interval_ms: int = POLL_INTERVAL_MS,
        backoff: RetryBackoff | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._client = client
        self._store = store
        self._runner = runner
        self._server = server_key
        self._text_source = text_source
        self._clock = clock
        self._backoff = backoff or RetryBackoff()

        self._draft_debounce = self._timer(draft_debounce_ms, self.flush_draft)
        self._draft_max_wait = self._timer(draft_max_wait_ms, self.flush_draft)
        self._retry_timer = self._timer(0, self.retry_now)
        self._poll_timer = QTimer(self)
        self._poll_timer.setInterval(poll_interval_ms)
        self._poll_timer.timeout.connect(self._on_poll)

        self._gen = 0  # bumped by open(): callbacks of an earlier agent are ignored
        self._reset(None, "")
        self._last_state: SessionState | None = None

    def _timer(self, interval_ms: int, slot: Callable[[], None]) -> QTimer:
        timer = QTimer(self)
        timer.setSingleShot(True)
        # Coarse timers may fire 5% late; the draft promise (on disk within 1 s) has no slack.
        timer.setTimerType(Qt.TimerType.PreciseTimer)
        timer.setInterval(interval_ms)
        timer.timeout.connect(slot)
        return timer

    def _reset(self, agent_id: str | None, agent_name: str) -> None:
        self._agent_id = agent_id
        self._agent_name = agent_name or (agent_id or "")
        self._base_version: int | None = None
        self._base_text: str | None = None  # the server's text at base_version, when known
        self._live: TaskDoc | None = None
        self._dirty = False
        self._edit_seq = 0
        self._confirmed = False
        self._inflight: _Put | None = None
        self._followup = False  # save() while one is in flight: one more save after it
        self._pending = False  # a save is owed (offline); retried with backoff
        self._offline = False
        self._last_contact: str | None = None  # when the text shown was fetched
        self._conflict: TaskDoc | None = None
        self._awaiting_theirs = False  # a 409 came; fetching their version
        self._draft: DraftOffer | None = None
        self._loading = agent_id is not None
        self._from_cache = False
        self._fresh = False  # the server has answered at least once for this agent
        self._checking = False
        self._fetch_again = False  # a read was asked for while one was out: one more after it
        self._local_done = False  # the cache and drafts have been looked at
        self._offline_news: BaseException | None = None  # to tell once the cache is known
        self._retry_in: float | None = None
        self._discarded: tuple[str, int | None, str | None] | None = None
        self._replacing = 0
        self._backoff.reset()

    # ------------------------------------------------------------------ reading the state

    @property
    def agent_id(self) -> str | None:
        return self._agent_id

    def state(self) -> SessionState:
        return SessionState(
            agent_id=self._agent_id,
            base_version=self._base_version,
            live=self._live,
            dirty=self._dirty,
            saving=self._inflight is not None,
            pending_save=self._pending or self._followup,
            offline=self._offline,
            offline_as_of=self._last_contact if self._offline else None,
            conflict=self._conflict,
            saved_text_confirmed=self._confirmed,
            draft=self._draft,
            loading=self._loading,
            from_cache=self._from_cache,
            retry_in_s=self._retry_in if self._retry_timer.isActive() else None,
        )

    def has_unsaved(self) -> bool:
        """Edits, an owed save, a save in flight or an open conflict: ask before leaving."""
        return self.state().has_unsaved

    def _changed(self) -> None:
        state = self.state()
        if state != self._last_state:
            self._last_state = state
            self.state_changed.emit(state)

    def _say(self, message: user_message.UserMessage) -> None:
        self.message.emit(message)

    # ------------------------------------------------------------------ open and load

    def open(self, agent_id: str, agent_name: str = "") -> None:
        """Shows ``agent_id``'s Task: the cached copy at once if there is one, then fresh."""
        self.flush_draft()  # the previous agent's last keystrokes
        self._retry_timer.stop()
        self._gen += 1
        self._reset(agent_id, agent_name)
        self._changed()
        gen = self._gen
        self._runner.submit(
            lambda: self._read_local(agent_id),
            on_done=lambda found: self._on_local(gen, found),
            on_error=lambda exc: self._on_local_error(gen, exc),
            lane="disk",
        )
        self._fetch_live()
        self._poll_timer.start()

    def _read_local(self, agent_id: str) -> tuple[Any, Any]:
        return self._store.get_task(self._server, agent_id), self._store.get_draft(
            self._server, agent_id
        )

    def _on_local(self, gen: int, found: tuple[Any, Any]) -> None:
        if gen != self._gen:
            return
        self._local_done = True
        cached, draft = found
        if cached is not None and not self._fresh and not self._dirty:
            doc, fetched_at = cached
            self._adopt(doc, replace_editor=True)
            self._from_cache = True
            self._confirmed = False  # the server has not said it still holds this text
            self._loading = False
            self._last_contact = _iso(fetched_at)
        if draft is not None:
            live = self._live
            if self._fresh and live is not None and draft.text == live.content:
                self._remove_draft(draft.text)  # the server holds exactly these bytes
            else:
                self._draft = DraftOffer(
                    agent_id=draft.agent_id,
                    text=draft.text,
                    base_version=draft.base_version,
                    saved_at=_iso(draft.saved_at),
                )
                based = f"v{draft.base_version}" if draft.base_version is not None else "no version"
                self._say(
                    user_message.warning(
                        f"A draft of {self._agent_name} based on {based} from "
                        f"{self._draft.saved_at} was never saved. Recover it?",
                        key=MessageKey.DRAFT,
                    )
                )
        self._tell_offline()
        self._changed()

    def _on_local_error(self, gen: int, exc: BaseException) -> None:
        if gen != self._gen:
            return
        self._local_done = True
        self._on_store_error(exc, "read the offline copy and drafts")
        self._tell_offline()
        self._changed()

    def _fetch_live(self) -> None:
        """A (conditional) GET of the live Task; its answer goes through _on_remote_doc."""
        agent_id = self._agent_id
        if agent_id is None:
            return
        if self._checking:
            self._fetch_again = True
            return
        self._checking = True
        gen = self._gen
        self._runner.submit(
            lambda: self._client.get_task(agent_id),
            on_done=lambda doc: self._on_fetched(gen, doc),
            on_error=lambda exc: self._on_fetch_error(gen, exc),
        )
        self._changed()

    def _on_fetched(self, gen: int, doc: TaskDoc) -> None:
        if gen != self._gen:
            return
        self._checking = False
        if self._fetch_again:
            # This read may predate what prompted the newer request (a 409): ask again.
            self._fetch_again = False
            self._fetch_live()
            return
        self._fresh = True
        self._last_contact = _iso(self._clock())
        self._loading = False
        self._from_cache = False
        self._back_online()
        self._cache(doc)
        if self._inflight is not None:
            # A save is in flight: its answer decides; this read may predate it.
            self._changed()
            return
        was_awaiting, self._awaiting_theirs = self._awaiting_theirs, False
        self._on_remote_doc(doc)
        if was_awaiting and self._conflict is None and self._has_edits():
            # The server said "conflict" but holds the very version the edits are based on.
            self._say(
                user_message.error(
                    "The server refused the save as a conflict, but its Task is still "
                    f"v{doc.version}, the version you edited. Your text is kept; save again.",
                    key=MessageKey.SAVE,
                )
            )
        if self._draft is not None and self._draft.text == doc.content:
            self._remove_draft(self._draft.text)
            self._draft = None
        if self._pending and self._conflict is None:
            self._start_save()  # the server is back: the owed save goes out now
        self._changed()

    def _on_fetch_error(self, gen: int, exc: BaseException) -> None:
        if gen != self._gen:
            return
        self._checking = False
        self._fetch_again = False
        if _is_connection_trouble(exc):
            first = not self._offline
            self._go_offline(exc)
            if first:
                self._offline_news = exc
        else:
            self._loading = False
            self._say(user_message.error(failure_text(exc), key=MessageKey.LOAD))
        self._tell_offline()
        self._changed()

    def _tell_offline(self) -> None:
        """Says the server is gone, once the cache has been looked at (it decides the words)."""
        exc = self._offline_news
        if exc is None or not self._local_done:
            return
        self._offline_news = None
        self._loading = False
        if self._live is None:
            self._say(
                user_message.error(
                    f"{failure_text(exc)} No copy of this Task is kept on this computer "
                    "yet; Taskdesk keeps trying.",
                    key=MessageKey.OFFLINE,
                )
            )
        elif not self._fresh:
            self._say(
                user_message.warning(
                    f"Offline: showing the copy from {self._last_contact or 'earlier'}. "
                    "Your edits are kept and saved when the server is back.",
                    key=MessageKey.OFFLINE,
                )
            )
        else:
            self._say(
                user_message.warning(
                    f"{failure_text(exc)} Your edits are kept and saved when the server is back.",
                    key=MessageKey.OFFLINE,
                )
            )

    def _on_remote_doc(self, doc: TaskDoc) -> None:
        """The server's live Task, just read: load it, adopt it, or raise a conflict."""
        self._live = doc
        if doc.version == self._base_version and doc.content == self._base_text:
            if not self._dirty and not self._pending:
                self._confirmed = True
            return
        if self._base_version is None or not self._has_edits():
            newer = self._base_version is not None
            self._adopt(doc, replace_editor=True)
            if newer:
                who = f" by {doc.updated_by_name}" if doc.updated_by_name else ""
                self._say(
                    user_message.info(f"Loaded v{doc.version}, saved{who}.", key=MessageKey.LOAD)
                )
            return
        text = self._text_source()
        if text == doc.content:
            # Someone (or our own uncertain save) put exactly this text there: nothing to choose.
            self._adopt(doc, replace_editor=False)
            self._remove_draft(text)
            return
        if doc.version == self._base_version:
            self._base_text = doc.content
            return
        if self._conflict is not None and self._conflict.version == doc.version:
            self._conflict = doc  # the same news again: the banner already says it
            return
        self._raise_conflict(doc)

    def _raise_conflict(self, theirs: TaskDoc) -> None:
        self._conflict = theirs
        self._confirmed = False
        self._pending = False
        self._followup = False
        self._retry_timer.stop()
        who = theirs.updated_by_name or "someone else"
        self._say(
            user_message.warning(
                f"{who} saved v{theirs.version} while you were editing. Your text is kept: "
                "Compare, then Keep mine or Use theirs.",
                key=MessageKey.CONFLICT,
            )
        )

    def _has_edits(self) -> bool:
        return self._dirty or self._pending or self._conflict is not None

    def _adopt(self, doc: TaskDoc, *, replace_editor: bool) -> None:
        """``doc`` becomes the base; the editor holds (or is given) exactly its text."""
        self._base_version = doc.version
        self._base_text = doc.content
        self._live = doc
        self._dirty = False
        self._pending = False
        self._followup = False
        self._confirmed = True
        self._loading = False
        if replace_editor:
            self._replace_editor(doc)

    def _replace_editor(self, doc: TaskDoc) -> None:
        self._replacing += 1
        try:
            self.task_loaded.emit(doc)
        finally:
            self._replacing -= 1

    def _restore_editor(self, text: str) -> None:
        self._replacing += 1
        try:
            self.text_restored.emit(text)
        finally:
            self._replacing -= 1

    def _cache(self, doc: TaskDoc) -> None:
        self._runner.submit(
            lambda: self._store.put_task(self._server, doc),
            on_done=_ignore,
            on_error=lambda exc: self._on_store_error(exc, "keep an offline copy"),
            lane="disk",
        )

    # ------------------------------------------------------------------ typing and drafts

    def note_edited(self) -> None:
        """The editor text changed. Called on every keystroke: no I/O, no work on the text."""
        if self._replacing or self._agent_id is None:
            return
        self._edit_seq += 1
        self._draft_debounce.start()
        if not self._draft_max_wait.isActive():
            self._draft_max_wait.start()
        if not self._dirty or self._confirmed:
            self._dirty = True
            self._confirmed = False
            self._changed()

    def flush_draft(self) -> None:
        """Writes the editor text as a draft now (the timers call this; so do save and close)."""
        self._draft_debounce.stop()
        self._draft_max_wait.stop()
        agent_id = self._agent_id
        if agent_id is None or not self._dirty:
            return
        text = self._text_source()
        if (
            text == self._base_text
            and self._conflict is None
            and self._inflight is None
            and not self._awaiting_theirs
        ):
            # Typed back to the server's own text: nothing unsaved remains.
            self._dirty = False
            self._pending = False
            self._followup = False
            self._confirmed = self._live is not None and self._live.version == self._base_version
            self._remove_draft(text)
            self._changed()
            return
        base = self._base_version
        name = self._agent_name
        self._runner.submit(
            lambda: self._store.save_draft(self._server, agent_id, text, base, agent_name=name),
            on_done=_ignore,
            on_error=lambda exc: self._on_store_error(exc, "save the draft"),
            lane="disk",
        )

    def _remove_draft(self, confirmed_text: str, agent_id: str | None = None) -> None:
        """Drops the draft only if it holds exactly ``confirmed_text`` (the store checks)."""
        agent = agent_id or self._agent_id
        if agent is None:
            return
        self._runner.submit(
            lambda: self._store.remove_draft(self._server, agent, confirmed_text),
            on_done=_ignore,
            on_error=lambda exc: self._on_store_error(exc, "remove the saved draft"),
            lane="disk",
        )

    def _on_store_error(self, exc: BaseException, action: str) -> None:
        if isinstance(exc, StoreError):
            self._say(user_message.error(exc.message, key=MessageKey.STORE))
        else:
            log.error("local store failed to %s", action, exc_info=exc)
            self._say(
                user_message.error(
                    f"Taskdesk could not {action} on this computer. The text in the editor "
                    "is untouched; save it to the server to keep it.",
                    key=MessageKey.STORE,
                )
            )

    def recoverable_drafts(self) -> None:
        """Looks for drafts of this server's agents; the answer comes as ``drafts_found``."""
        self._runner.submit(
            lambda: self._store.list_drafts(self._server),
            on_done=self.drafts_found.emit,
            on_error=lambda exc: self._on_store_error(exc, "read the drafts"),
            lane="disk",
        )

    def recover_draft(self) -> None:
        """Puts the offered draft in the editor, on the version it was typed on."""
        offer = self._draft
        if offer is None:
            return
        self._draft = None
        self._restore_editor(offer.text)
        self._edit_seq += 1
        self._dirty = True
        self._confirmed = False
        if offer.base_version is not None and offer.base_version != self._base_version:
            self._base_version = offer.base_version
            self._base_text = self._text_of_version(offer.base_version)
        live = self._live
        if live is not None and self._fresh and live.version != self._base_version:
            # Typed on an older version: the operator chooses, nothing is overwritten.
            self._on_remote_doc(live)
        self._changed()

    def dismiss_draft(self) -> None:
        """Drops the offered draft, keeping its text in local history."""
        offer = self._draft
        if offer is None:
            return
        self._draft = None
        agent_id = offer.agent_id
        self._runner.submit(
            lambda: self._store.discard_draft(
                self._server,
                agent_id,
                offer.text,
                HistoryReason.DISCARDED,
                offer.base_version,
                agent_name=self._agent_name,
            ),
            on_done=_ignore,
            on_error=lambda exc: self._on_store_error(exc, "keep the draft in local history"),
            lane="disk",
        )
        self._changed()

    def _text_of_version(self, version: int) -> str | None:
        live = self._live
        if live is None:
            return None
        if live.version == version:
            return live.content
        for rev in live.revisions:
            if rev.version == version:
                return rev.content
        return None

    # ------------------------------------------------------------------ saving

    def save(self) -> None:
        """Saves the editor text on its base version; one save at a time, extras collapse.

        Whatever happens next (a conflict, the server away, a refusal), the text is written
        as a draft first: Save always keeps the operator's words on this computer.
        """
        self.flush_draft()
        if self._agent_id is None or (self._base_version is None and self._live is None):
            self._say(user_message.info("Nothing to save yet: the Task is still loading."))
            return
        if self._conflict is not None or self._awaiting_theirs:
            self._say(
                user_message.warning(
                    "Someone else saved a newer version. Compare, then choose Keep mine or "
                    "Use theirs before saving.",
                    key=MessageKey.CONFLICT,
                )
            )
            return
        if self._inflight is not None:
            self._followup = True
            self._changed()
            return
        if not self._dirty and not self._pending and self._confirmed:
            self._say(user_message.info("No changes to save.", key=MessageKey.SAVE))
            return
        if self._offline:
            self._say(
                user_message.warning(
                    "The server can't be reached, so the Task is not saved yet. Your edits "
                    "are kept and saved when the server is back.",
                    key=MessageKey.OFFLINE,
                )
            )
        self._start_save()

    def _start_save(self) -> None:
        text = self._text_source()
        size = utf8_len(text)
        if size > TASK_MAX_BYTES:
            self._pending = False
            self._followup = False
            self._say(
                user_message.error(
                    f"The Task is {_kb(size)}; the limit is 256 KB (UTF-8 bytes). Cut at least "
                    f"{_kb(size - TASK_MAX_BYTES)} or move long rules into an embedded note, "
                    "then save. Your text is kept as a draft.",
                    key=MessageKey.SAVE,
                )
            )
            self.flush_draft()
            self._changed()
            return
        self._put(text, self._base_version)

    def _put(self, text: str, expected: int | None, restoring: int | None = None) -> None:
        agent_id = self._agent_id
        assert agent_id is not None and self._inflight is None
        if restoring is None and self._dirty:
            self.flush_draft()  # a crash while the save is out still finds the text
        put = _Put(self._gen, agent_id, text, expected, self._edit_seq, restoring)
        self._inflight = put
        self._pending = False
        self._retry_timer.stop()
        self._changed()
        self._runner.submit(
            lambda: self._client.put_task(agent_id, text, expected),
            on_done=lambda doc: self._on_put_done(put, doc),
            on_error=lambda exc: self._on_put_error(put, exc),
        )

    def _on_put_done(self, put: _Put, doc: TaskDoc) -> None:
        if put.gen != self._gen:
            if doc.content == put.text:
                self._remove_draft(put.text, put.agent_id)
            return
        self._inflight = None
        self._back_online()
        self._cache(doc)
        typed_since = self._edit_seq != put.edit_seq
        if doc.content != put.text:
            self._live = doc
            self._say(
                user_message.error(
                    f"The server stored v{doc.version} with a different text than was sent. "
                    "Your text is kept; compare it with the live Task, then save again.",
                    key=MessageKey.SAVE,
                )
            )
            self._changed()
            return
        if put.restoring is not None:
            if typed_since:
                self._on_remote_doc(doc)
            else:
                self._adopt(doc, replace_editor=True)
            self._say(
                user_message.info(
                    f"Restored v{put.restoring} as v{doc.version}.", key=MessageKey.SAVE
                )
            )
            self._changed()
            return
        self._base_version = doc.version
        self._base_text = doc.content
        self._live = doc
        if not typed_since:
            self._dirty = False
            self._confirmed = True
            self._remove_draft(put.text)
        self._say(user_message.info(f"Saved as v{doc.version}.", key=MessageKey.SAVE))
        if self._followup:
            self._followup = False
            if self._dirty:
                self._start_save()
        self._changed()

    def _on_put_error(self, put: _Put, exc: BaseException) -> None:
        if put.gen != self._gen:
            return  # another agent is open now; the draft stays on disk for later
        self._inflight = None
        followup, self._followup = self._followup, False
        if put.restoring is not None:
            self._on_restore_error(put, exc)
        elif isinstance(exc, VersionConflict):
            self._awaiting_theirs = True
            self._confirmed = False
            self._fetch_live()
        elif isinstance(exc, SaveUncertain):
            self._on_uncertain(put, exc)
        elif isinstance(exc, BadResponse):
            self._check_unreadable_save(put, exc)
        elif _is_connection_trouble(exc):
            first = not self._offline
            self._pending = True
            self._go_offline(exc)
            if first:
                self._say(
                    user_message.warning(
                        f"{failure_text(exc)} Your edits are kept and will be saved when the "
                        "server is back.",
                        key=MessageKey.OFFLINE,
                    )
                )
        else:
            self._pending = False
            self._say(user_message.error(failure_text(exc), key=MessageKey.SAVE))
            if not isinstance(exc, TaskdeskError):
                log.error("saving failed", exc_info=exc)
        if followup and not self._pending:
            log.info("a save queued behind a failed one was dropped with it")
        self._changed()

    def _on_uncertain(self, put: _Put, exc: SaveUncertain) -> None:
        live = exc.live
        if live is None:
            # The server may or may not hold our text: retrying on the same base is safe,
            # because if it did land the retry meets a 409 and then finds our own bytes.
            self._pending = True
            self._go_offline(exc)
            self._say(user_message.warning(exc.message, key=MessageKey.OFFLINE))
            return
        self._cache(live)
        if live.content == put.text:
            self._on_put_done(put, live)
            return
        self._back_online()
        if live.version == put.expected:
            self._pending = True  # it did not land; send it again
            self._schedule_retry(None)
            self._say(user_message.warning(exc.message, key=MessageKey.SAVE))
            return
        self._on_remote_doc(live)

    def _check_unreadable_save(self, put: _Put, exc: BadResponse) -> None:
        """The answer to a save could not be read: it may have landed. Ask the server."""
        agent_id = put.agent_id
        self._inflight = put  # still one save in flight until we know
        self._runner.submit(
            lambda: self._client.get_task(agent_id),
            on_done=lambda live: self._on_unreadable_checked(put, exc, live),
            on_error=lambda _: self._on_unreadable_checked(put, exc, None),
        )

    def _on_unreadable_checked(self, put: _Put, exc: BadResponse, live: TaskDoc | None) -> None:
        if put.gen != self._gen:
            return
        if live is not None and live.content == put.text:
            self._on_put_done(put, live)
            return
        self._inflight = None
        self._say(user_message.error(exc.message, key=MessageKey.SAVE))
        if live is not None:
            self._on_remote_doc(live)
        self._changed()

    def _on_restore_error(self, put: _Put, exc: BaseException) -> None:
        if isinstance(exc, VersionConflict):
            self._say(
                user_message.warning(
                    f"Someone saved meanwhile, so v{put.restoring} was not restored. "
                    "Look at the versions again.",
                    key=MessageKey.SAVE,
                )
            )
            self._fetch_live()
        elif _is_connection_trouble(exc) or isinstance(exc, SaveUncertain):
            self._say(
                user_message.error(
                    f"v{put.restoring} could not be restored: {failure_text(exc)}",
                    key=MessageKey.SAVE,
                )
            )
            self._fetch_live()
        else:
            self._say(user_message.error(failure_text(exc), key=MessageKey.SAVE))

    # ------------------------------------------------------------------ offline and retry

    def _go_offline(self, exc: BaseException) -> None:
        self._offline = True
        self._schedule_retry(getattr(exc, "retry_after", None))

    def _back_online(self) -> None:
        if self._offline:
            self._say(user_message.info("The server is back.", key=MessageKey.OFFLINE))
        self._offline = False
        self._backoff.reset()
        self._retry_timer.stop()

    def _schedule_retry(self, retry_after: float | None) -> None:
        wait = self._backoff.next_wait(retry_after)
        self._retry_in = wait
        self._retry_timer.start(round(wait * 1000))

    def retry_now(self) -> None:
        """Tries the server at once: the owed save if there is one, else a fresh read."""
        self._retry_timer.stop()
        if self._agent_id is None or self._inflight is not None:
            return
        owed = self._pending and self._conflict is None and not self._awaiting_theirs
        if owed and self._fresh:
            self._start_save()
            return
        # Otherwise read first: if this session never heard from the server, a newer version
        # someone saved meanwhile must turn into a conflict instead of being overwritten.
        self._fetch_live()

    def check_remote(self) -> None:
        """A cheap conditional GET: a newer version loads (no edits) or raises a conflict."""
        if self._inflight is None:
            self._fetch_live()

    def _on_poll(self) -> None:
        if not self._offline:  # while offline the retry timer paces the tries
            self.check_remote()

    # ------------------------------------------------------------------ the operator's choices

    def keep_mine(self) -> None:
        """Saves the editor text over their version, knowingly (expected_version = theirs)."""
        theirs = self._conflict
        if theirs is None:
            return
        self._conflict = None
        self._base_version = theirs.version
        self._base_text = theirs.content
        self._live = theirs
        self._dirty = True
        if self._inflight is None:
            self._start_save()
        else:
            self._followup = True
        self._changed()

    def use_theirs(self) -> None:
        """Loads their version; the editor text goes to local history first."""
        theirs = self._conflict
        if theirs is None:
            return
        self._keep_then(
            HistoryReason.USED_THEIRS,
            lambda text, base: self._replace_with(theirs, text, base, discarding=False),
        )

    def discard(self) -> None:
        """Drops the edits (kept in local history, and ``undo_discard`` brings them back)."""
        if self._agent_id is None or not self._has_edits():
            self._say(user_message.info("No edits to discard.", key=MessageKey.DISCARD))
            return
        target = self._conflict or self._live
        if target is None:
            return
        self._keep_then(
            HistoryReason.DISCARDED,
            lambda text, base: self._replace_with(target, text, base, discarding=True),
        )

    def _keep_then(self, reason: str, then: Callable[[str, int | None], None]) -> None:
        """Moves the editor text (and its draft) to local history, then runs ``then``.

        ``then`` runs only once the history holds the text: a failed write leaves the editor
        as it was, so nothing is lost.
        """
        agent_id = self._agent_id
        if agent_id is None:
            return
        gen = self._gen
        text = self._text_source()
        base = self._base_version

        def done(_: object) -> None:
            if gen != self._gen:
                return
            if self._text_source() != text:
                self._keep_then(reason, then)  # typed meanwhile: keep that too, then go on
                return
            then(text, base)

        self._runner.submit(
            lambda: self._store.discard_draft(
                self._server, agent_id, text, reason, base, agent_name=self._agent_name
            ),
            on_done=done,
            on_error=lambda exc: self._on_store_error(exc, "keep your text in local history"),
            lane="disk",
        )

    def _replace_with(self, doc: TaskDoc, text: str, base: int | None, *, discarding: bool) -> None:
        self._conflict = None
        self._awaiting_theirs = False
        self._retry_timer.stop()
        self._adopt(doc, replace_editor=True)
        if discarding:
            self._discarded = (text, base, self._text_of_version(base) if base else None)
            self._say(
                user_message.info(
                    "Edits discarded; they are kept in local history. Undo brings them back.",
                    key=MessageKey.DISCARD,
                )
            )
        else:
            self._say(
                user_message.info(
                    f"Loaded v{doc.version}; your text is kept in local history.",
                    key=MessageKey.CONFLICT,
                )
            )
        self._changed()

    def undo_discard(self) -> None:
        """Brings back the text the last Discard dropped, on the version it was typed on."""
        if self._discarded is None:
            return
        text, base, base_text = self._discarded
        self._discarded = None
        self._restore_editor(text)
        self._edit_seq += 1
        self._dirty = True
        self._confirmed = False
        if base is not None and base != self._base_version:
            # Typed on an older version: a save then meets a conflict, never an overwrite.
            self._base_version = base
            self._base_text = base_text
        self.flush_draft()
        self._changed()

    def restore(self, version: int) -> None:
        """Makes revision ``version`` the live Task again, as a new version."""
        live = self._live
        if live is None or self._agent_id is None:
            return
        if self._has_edits() or self._inflight is not None:
            self._say(
                user_message.warning(
                    "Save or discard your edits before restoring an earlier version.",
                    key=MessageKey.SAVE,
                )
            )
            return
        if version == live.version:
            self._say(
                user_message.info(f"v{version} is already the live version.", key=MessageKey.SAVE)
            )
            return
        content = self._text_of_version(version)
        if content is None:
            self._say(
                user_message.error(
                    f"v{version} is not among the versions the server keeps.", key=MessageKey.SAVE
                )
            )
            return
        self._put(content, live.version, restoring=version)

    # ------------------------------------------------------------------ closing

    def close(self) -> None:
        """Stops the timers and writes the last keystrokes as a draft."""
        self.flush_draft()
        self._poll_timer.stop()
        self._retry_timer.stop()


def _is_connection_trouble(exc: BaseException) -> bool:
    """Failures that pass: the server is down, overloaded or unreachable for now."""
    return isinstance(exc, Offline | ServerError | RateLimited)


def _ignore(_: object) -> None:
    pass


__all__ = ["DraftOffer", "SessionState", "TaskSession"]
