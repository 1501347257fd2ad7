"""TaskSession: one open agent's Task from load to save, through conflicts and offline spells.

The rule it exists for: never lose a word. Every text that leaves the editor goes to the
server (confirmed byte for byte), to a draft, or to local history first.

How the window uses it:
- ``open(agent_id)``, then put each ``task_loaded`` TaskDoc's content (or each
  ``text_restored`` string) into the editor, synchronously inside the slot. ``note_edited()``
  calls made while the session replaces the text are ignored.
- call ``note_edited()`` on every change of the editor text (cheap: no I/O, no O(n) work);
- ``save()``, ``discard()`` / ``undo_discard()``, ``keep_mine()`` / ``use_theirs()`` /
  ``merged(version, text)``,
  ``restore(version)``, ``recover_draft()`` / ``dismiss_draft()``, ``retry_now()``;
- draw ``state_changed`` (a SessionState) and show ``message`` (a UserMessage);
- ``has_unsaved()`` before leaving on every path, ``close()`` when the tab goes.

The decisions are pure transitions on an immutable ``SessionModel`` (``session_reads``,
``session_saves``, ``session_choices``); this QObject performs the effects they return,
in order: signals, timers, and work on the Runner, whose answers come back as transitions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Protocol, assert_never

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from app.core.models import TaskDoc
from app.desk import session_choices as choices
from app.desk import session_messages as say
from app.desk import session_reads as reads
from app.desk import session_saves as saves
from app.desk.draft_keeper import DRAFT_DEBOUNCE_MS, DRAFT_MAX_WAIT_MS, DraftKeeper, DraftStore
from app.desk.retry_backoff import RetryBackoff
from app.desk.runner import Runner
from app.desk.save_intents import AfterSave, RestoreSave
from app.desk.session_effects import (
    CacheTask,
    Effect,
    Fetch,
    KeepInHistory,
    LoadEditor,
    Proceed,
    Publish,
    ReadLocal,
    Refused,
    RemoveDraft,
    RestoreEditor,
    Saved,
    Say,
    SendPut,
    StartRetry,
    StopDraftTimers,
    StopRetry,
    Then,
    Transition,
    WriteDraft,
)
from app.desk.session_model import SessionModel, SessionPhase
from app.desk.session_state import DraftOffer, SessionState
from app.desk.session_steps import flush_draft
from app.store.records import Cached, Draft

SAVING = SessionPhase.SAVING

POLL_INTERVAL_MS = 15_000
"""A conditional GET this often finds another save while the operator edits (304: free)."""


class TaskClient(Protocol):
    """What the session needs of ``app.client.TaskdeskClient``."""

    def get_task(self, agent_id: str) -> TaskDoc: ...

    def put_task(
        self,
        agent_id: str,
        content: str,
        expected_version: int | None,
        *,
        restored_from: int | None = ...,
    ) -> TaskDoc: ...


def utc_now() -> datetime:
    return datetime.now(UTC)


class TaskSession(QObject):
    """Load → edit → save → conflict → offline for one open agent (``open`` switches agent)."""

    state_changed = Signal(object)  # SessionState
    task_loaded = Signal(object)  # TaskDoc whose content replaces the editor text
    text_restored = Signal(str)  # unsaved text (a draft, an undone discard) for the editor
    message = Signal(object)  # UserMessage
    drafts_found = Signal(object)  # list of the store's drafts for this server
    polled = Signal()  # the poll asked the server again (others follow it: embed status)
    saved = Signal(int)  # the server confirmed the editor text as this version
    save_refused = Signal(str)  # a save did not happen (refused, or not sent): why, in words

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
        self._clock = clock
        self._drafts = DraftKeeper(
            store=store,
            runner=runner,
            server_key=server_key,
            on_due=self.flush_draft,
            on_failure=self.message.emit,
            debounce_ms=draft_debounce_ms,
            max_wait_ms=draft_max_wait_ms,
            parent=self,
        )
        self._retry_timer = QTimer(self)
        self._retry_timer.setSingleShot(True)
        self._retry_timer.setTimerType(Qt.TimerType.PreciseTimer)  # a Retry-After is to the second
        self._retry_timer.timeout.connect(self.retry_now)
        self._poll_timer = QTimer(self)
        self._poll_timer.setInterval(poll_interval_ms)
        self._poll_timer.timeout.connect(self._on_poll)

        self._model = SessionModel(backoff=backoff or RetryBackoff())
        self._editor = _Editor(text_source)
        self._replacing = 0  # the session is replacing the editor text: not an edit
        self._depth = 0  # transitions running (a Then runs inside the one that asked for it)
        self._last_state: SessionState | None = None

    # ------------------------------------------------------------------ reading the state

    @property
    def agent_id(self) -> str | None:
        return self._model.agent_id

    def state(self) -> SessionState:
        return self._model.snapshot()

    def has_unsaved(self) -> bool:
        """Edits, an owed save, a save in flight or an open conflict: ask before leaving."""
        return self.state().has_unsaved

    # ------------------------------------------------------------------ the window's calls

    def open(self, agent_id: str, agent_name: str = "") -> None:
        """Shows ``agent_id``'s Task: the cached copy at once if there is one, then fresh."""
        self.flush_draft()  # the previous agent's last keystrokes
        self._run(lambda m, ed: reads.open_agent(m, ed, agent_id, agent_name))
        self._poll_timer.start()

    def note_edited(self) -> None:
        """The editor text changed. Called on every keystroke: no I/O, no work on the text."""
        model = self._model
        if self._replacing or model.agent_id is None:
            return
        self._editor.edits += 1
        self._drafts.note_keystroke()
        if not model.dirty or model.confirmed:
            self._run(choices.edited)

    def flush_draft(self) -> None:
        """Writes the editor text as a draft now (the timers call this; so do save and close)."""
        self._run(flush_draft)

    def save(self, after: AfterSave | None = None) -> None:
        """Saves the editor text on its base version; one save at a time, extras collapse.

        Whatever happens next (a conflict, the server away, a refusal), the text is written
        as a draft first: Save always keeps the operator's words on this computer. ``after``
        runs once this save is confirmed; anything else drops it (``AfterSave``).
        """
        self.flush_draft()
        if after is None:
            self._run(saves.save)
        else:
            self._run(lambda m, ed: saves.save_then(m, ed, after))

    def mark_merge(self, open_conflicts: int | None) -> None:
        """A merge is in the editor with ``open_conflicts`` unresolved (None: none is): the
        session refuses to save while any is open."""
        if open_conflicts != self._model.merge_open:
            self._run(lambda m, ed: saves.merge_marked(m, ed, open_conflicts))

    def retry_now(self) -> None:
        """Tries the server at once: the owed save if there is one, else a fresh read."""
        self._run(reads.retry_now)

    def check_remote(self) -> None:
        """A cheap conditional GET: a newer version loads (no edits) or raises a conflict."""
        self._run(reads.check_remote)

    def _on_poll(self) -> None:
        self._run(reads.poll)
        self.polled.emit()

    def keep_mine(self) -> None:
        """Saves the editor text over their version, knowingly (expected_version = theirs)."""
        self._run(choices.keep_mine)

    def merged(self, theirs_version: int, text: str) -> None:
        """Puts ``text`` (a merge with conflict version ``theirs_version``) in the editor as an
        unsaved edit based on that version; the editor text goes to local history first."""
        self._run(lambda m, ed: choices.merged(m, ed, theirs_version, text))

    def unmerged(
        self, theirs: TaskDoc, text: str, base_version: int | None, base_text: str | None
    ) -> None:
        """Leaves an unsaved merge with ``theirs``: ``text`` (what the merge replaced, typed on
        ``base_version``) back in the editor, and the conflict open again."""
        self._run(lambda m, ed: choices.unmerged(m, ed, theirs, text, base_version, base_text))

    def use_theirs(self) -> None:
        """Loads their version; the editor text goes to local history first."""
        self._run(choices.use_theirs)

    def discard(self) -> None:
        """Drops the edits (kept in local history, and ``undo_discard`` brings them back)."""
        self._run(choices.discard)

    def undo_discard(self) -> None:
        """Brings back the text the last Discard dropped, on the version it was typed on."""
        self._run(choices.undo_discard)

    def restore(self, version: int) -> None:
        """Makes revision ``version`` the live Task again, as a new version."""
        self._run(lambda m, ed: saves.restore(m, ed, version))

    def recoverable_drafts(self) -> None:
        """Looks for drafts of this server's agents; the answer comes as ``drafts_found``."""
        self._drafts.find_drafts(self.drafts_found.emit)

    def recover_draft(self) -> None:
        """Puts the offered draft in the editor, on the version it was typed on."""
        self._run(choices.recover_draft)

    def dismiss_draft(self) -> None:
        """Drops the offered draft, keeping its text in local history."""
        self._run(choices.dismiss_draft)

    def close(self) -> None:
        """Stops the timers and writes the last keystrokes as a draft."""
        self.flush_draft()
        self._poll_timer.stop()
        self._run(reads.stop_retrying)

    # ------------------------------------------------------------------ performing effects

    def _run(self, transition: Transition) -> None:
        """Moves the model on by ``transition``, then performs its effects in order."""
        self._depth += 1
        try:
            step = transition(self._model, self._editor)
            self._model = step.model
            for effect in step.effects:
                self._perform(effect)
        finally:
            self._depth -= 1
        model = self._model
        if self._depth == 0 and model.after_save is not None and model.phase is not SAVING:
            self._run(saves.settle_after_save)

    def _perform(self, effect: Effect) -> None:
        match effect:
            case Publish():
                self._publish()
            case Say(message):
                self.message.emit(message)
            case LoadEditor(doc):
                with self._replacing_text():
                    self.task_loaded.emit(doc)
            case RestoreEditor(text):
                with self._replacing_text():
                    self.text_restored.emit(text)
                self._editor.edits += 1
            case StartRetry(seconds):
                self._retry_timer.start(round(seconds * 1000))
            case StopRetry():
                self._retry_timer.stop()
            case StopDraftTimers():
                self._drafts.stop_timers()
            case ReadLocal():
                self._read_local(effect)
            case Fetch():
                self._fetch(effect)
            case SendPut():
                self._send_put(effect)
            case CacheTask(doc):
                self._cache(doc)
            case WriteDraft(agent_id, text, base_version, agent_name):
                self._drafts.write(agent_id, text, base_version, agent_name)
            case RemoveDraft(agent_id, confirmed_text):
                self._drafts.remove(agent_id, confirmed_text)
            case KeepInHistory():
                self._keep_in_history(effect)
            case Saved(version):
                self.saved.emit(version)
            case Refused(message):
                self.save_refused.emit(message.text)
            case Proceed(intent):
                intent.proceed()
            case Then(transition):
                self._run(transition)
            case _:
                assert_never(effect)

    def _publish(self) -> None:
        state = self.state()
        if state != self._last_state:
            self._last_state = state
            self.state_changed.emit(state)

    @contextmanager
    def _replacing_text(self) -> Iterator[None]:
        self._replacing += 1
        try:
            yield
        finally:
            self._replacing -= 1

    def _read_local(self, effect: ReadLocal) -> None:
        store, server, gen, agent_id = self._store, self._server, effect.gen, effect.agent_id

        def read() -> tuple[Cached[TaskDoc] | None, Draft | None]:
            return store.get_task(server, agent_id), store.get_draft(server, agent_id)

        self._runner.submit(
            read,
            on_done=lambda found: self._run(lambda m, ed: reads.local_read(m, ed, gen, *found)),
            on_error=lambda exc: self._run(lambda m, ed: reads.local_failed(m, ed, gen, exc)),
            lane="disk",
        )

    def _fetch(self, effect: Fetch) -> None:
        client, gen, agent_id = self._client, effect.gen, effect.agent_id
        self._runner.submit(
            lambda: client.get_task(agent_id),
            on_done=lambda doc: self._on_fetched(gen, doc),
            on_error=lambda exc: self._run(lambda m, ed: reads.fetch_failed(m, ed, gen, exc)),
        )

    def _on_fetched(self, gen: int, doc: TaskDoc) -> None:
        at = self._clock()
        self._run(lambda m, ed: reads.fetched(m, ed, gen, doc, at))

    def _send_put(self, effect: SendPut) -> None:
        client, put = self._client, effect.put
        # A restore says which version it puts back (EXTENSION): the audit lists a restore.
        restoring = put.reason.version if isinstance(put.reason, RestoreSave) else None
        self._runner.submit(
            lambda: client.put_task(put.agent_id, put.text, put.expected, restored_from=restoring),
            on_done=lambda doc: self._run(lambda m, ed: saves.put_done(m, ed, put, doc)),
            on_error=lambda exc: self._run(lambda m, ed: saves.put_failed(m, ed, put, exc)),
        )

    def _cache(self, doc: TaskDoc) -> None:
        store, server = self._store, self._server
        self._runner.submit(
            lambda: store.put_task(server, doc),
            on_done=_ignore,
            on_error=lambda exc: self.message.emit(say.store_failed(exc, "keep an offline copy")),
            lane="disk",
        )

    def _keep_in_history(self, kept: KeepInHistory) -> None:
        def then() -> None:
            self._run(lambda m, ed: choices.kept_in_history(m, ed, kept))

        self._drafts.keep_in_history(
            kept.agent_id,
            kept.text,
            kept.reason,
            kept.base_version,
            kept.agent_name,
            action=kept.action,
            then=then if kept.replacement is not None else None,
        )


class _Editor:
    """The editor as transitions see it: its text, read only when they need it, and the
    number of edits it has seen (the session's own text restores count one each)."""

    __slots__ = ("_source", "edits")

    def __init__(self, source: Callable[[], str]) -> None:
        self._source = source
        self.edits = 0

    def text(self) -> str:
        return self._source()


def _ignore(_: object) -> None:
    pass


__all__ = [
    "DRAFT_DEBOUNCE_MS",
    "DRAFT_MAX_WAIT_MS",
    "POLL_INTERVAL_MS",
    "DraftOffer",
    "DraftStore",
    "SessionState",
    "TaskClient",
    "TaskSession",
]
