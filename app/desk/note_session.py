"""One note open for editing: load, save at the version read, and a conflict merged.

The note's own session, beside the Task's ``TaskSession``: a note has a version, earlier
texts, drafts kept on disk (``note_drafts``), the same three-way merge (``app.core.merge``)
and the Task's offline saves: a save the server can't take now (unreachable, overloaded,
rate-limited: ``session_steps.is_connection_trouble``) is owed, its text kept as the draft,
and sent again on the Task's ``RetryBackoff`` (1, 2, 4 … s, the server's Retry-After first)
or at once with ``retry_now``, on the version it was typed on. A save someone else beat is
merged at once: a clean merge comes back as the new text to check and save again; conflicts
come back written out between markers, nothing lost either way.
"""

from __future__ import annotations

import enum
from typing import Protocol

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from app.client.errors import NotFound, VersionConflict
from app.core.merge import MarkerLabels, merge_texts
from app.core.models import Me
from app.core.note_uses import NoteDoc
from app.desk import session_messages as say
from app.desk.failures import failure_text
from app.desk.note_drafts import NoteDrafts
from app.desk.retry_backoff import RetryBackoff
from app.desk.runner import Runner
from app.desk.session_steps import is_connection_trouble, retry_after
from app.store.records import Draft

DELETED_WHILE_OPEN = (
    "This note was deleted while it was open. Your text is still here: copy it, or make the "
    "note again with Edit › Move to a note…."
)
READ_ONLY = "Your access to this note is read only: ask an operator for write access."


class NoteEditing(Protocol):
    """What the session needs of ``TaskdeskClient``."""

    def note_doc(self, display_path: str) -> NoteDoc: ...

    def put_note(
        self, display_path: str, text: str, expected_version: int, title: str | None = None
    ) -> NoteDoc: ...


class NotePhase(enum.Enum):
    LOADING = "loading"
    EDITING = "editing"
    SAVING = "saving"
    OWED = "owed"  # a save the server could not take yet: sent again when it is back
    GONE = "gone"  # deleted on the server while open


def writable_by(me: Me, doc: NoteDoc) -> bool:
    """Operators write every note; others where the access list gives them ``write``."""
    if me.type == "operator":
        return True
    mine = {f"user:{me.id}", "org"} if me.type != "agent" else {f"agent:{me.id}", "org"}
    return any(e.role == "write" and e.principal in mine for e in doc.file.access)


class NoteSession(QObject):
    """Load → edit → save → conflict for one note, each outcome a signal."""

    loaded = Signal(object, bool, str)  # NoteDoc, writable, why not writable ("" if it is)
    load_failed = Signal(str)
    saved = Signal(object)  # NoteDoc, the new live note
    merged = Signal(str, int, int)  # text to check, live version, conflicts left in it
    save_failed = Signal(str)
    gone = Signal(str)  # the note was deleted while open: the sentence
    draft_found = Signal(str, int)  # unsaved edits kept from before, the version they were on
    owed = Signal(str)  # the server can't take the save now: the sentence (it is sent later)
    preview_ready = Signal(str)  # the rendered text of ``render_preview``'s newest text

    def __init__(
        self,
        runner: Runner,
        client: NoteEditing,
        me: Me,
        display_path: str,
        parent: QObject | None = None,
        *,
        drafts: NoteDrafts | None = None,
        backoff: RetryBackoff | None = None,
    ) -> None:
        super().__init__(parent)
        self._drafts = drafts
        self._draft: Draft | None = None
        self._runner = runner
        self._client = client
        self._me = me
        self.display_path = display_path
        self.phase = NotePhase.LOADING
        self.doc: NoteDoc | None = None  # the live note as last read or saved (the base)
        self._backoff = backoff or RetryBackoff()
        self._owed: tuple[str, str | None] | None = None  # (text, title) of the save owed
        self._retry = QTimer(self)
        self._retry.setSingleShot(True)
        self._retry.setTimerType(Qt.TimerType.PreciseTimer)  # a Retry-After is to the second
        self._retry.timeout.connect(self.retry_now)
        self._preview_asked = 0  # the newest render asked: an older one finishing is dropped

    def load(self) -> None:
        self.phase = NotePhase.LOADING
        self._runner.submit(
            lambda: self._client.note_doc(self.display_path),
            on_done=self._on_loaded,
            on_error=lambda exc: self.load_failed.emit(failure_text(exc)),
        )

    def _on_loaded(self, doc: NoteDoc) -> None:
        self.doc = doc
        self.phase = NotePhase.EDITING
        writable = doc.file.kind == "note" and writable_by(self._me, doc)
        self.loaded.emit(doc, writable, "" if writable else READ_ONLY)
        if writable and self._drafts is not None:
            self._drafts.find(self.display_path, self._on_draft)

    def _on_draft(self, draft: Draft | None) -> None:
        doc = self.doc
        if draft is None or doc is None or draft.text == doc.text:
            return
        self._draft = draft
        self.draft_found.emit(draft.text, draft.base_version or doc.version)

    def keep_draft(self, text: str) -> None:
        """The editor's text, kept on disk until it is saved (a crash loses nothing)."""
        doc = self.doc
        if self._drafts is None or doc is None or self.phase is NotePhase.GONE:
            return
        self._drafts.keep(self.display_path, text, doc.version, doc.file.title)

    def recover_draft(self) -> None:
        """The kept draft into the editor; typed on an older version, it is merged first."""
        draft, doc = self._draft, self.doc
        if draft is None or doc is None:
            return
        base_version = draft.base_version or doc.version
        if base_version == doc.version:
            self.merged.emit(draft.text, doc.version, 0)
            return
        base = next((r.text for r in doc.revisions if r.version == base_version), None)
        if base is None:  # its version is no longer kept: the draft, marked against the live text
            base = ""
        result = merge_texts(base, doc.text, draft.text)
        if result.is_clean and result.text is not None:
            self.merged.emit(result.text, doc.version, 0)
        else:
            self.merged.emit(result.marked(MarkerLabels()).text, doc.version, result.unresolved)

    @property
    def save_owed(self) -> bool:
        return self.phase is NotePhase.OWED

    def save(self, text: str, title: str | None = None) -> None:
        """Save ``text`` at the version last read; a conflict is merged (``merged``). While a
        save is owed, ``text`` replaces it and goes out at once."""
        if self.phase is NotePhase.OWED:
            self._owed = (text, title)
            self.retry_now()
            return
        if self.doc is None or self.phase is not NotePhase.EDITING:
            return
        self._put(text, title)

    def retry_now(self) -> None:
        """Send the owed save now (the server may be back); nothing when none is owed."""
        owed = self._owed
        if self.phase is not NotePhase.OWED or owed is None:
            return
        self._retry.stop()
        self._put(*owed)

    def _put(self, text: str, title: str | None) -> None:
        base = self.doc
        assert base is not None
        self.phase = NotePhase.SAVING

        def put() -> NoteDoc:
            return self._client.put_note(self.display_path, text, base.version, title)

        def done(doc: NoteDoc) -> None:
            self._landed(doc, text)

        def failed(exc: BaseException) -> None:
            if is_connection_trouble(exc):
                self._owe(text, title, exc)
                return
            self._settled()
            if isinstance(exc, VersionConflict):
                self._merge(base, text)
            elif isinstance(exc, NotFound):
                self.phase = NotePhase.GONE
                self.gone.emit(DELETED_WHILE_OPEN)
            else:
                self.phase = NotePhase.EDITING
                self.save_failed.emit(failure_text(exc))

        self._runner.submit(put, on_done=done, on_error=failed)

    def _landed(self, doc: NoteDoc, text: str) -> None:
        self._settled()
        self.doc = doc
        self.phase = NotePhase.EDITING
        if self._drafts is not None:
            self._drafts.drop(self.display_path, text)
        self.saved.emit(doc)

    def _owe(self, text: str, title: str | None, exc: BaseException) -> None:
        """The server can't take it now: keep the text on disk and try again later."""
        self.phase = NotePhase.OWED
        self._owed = (text, title)
        self.keep_draft(text)  # a quit or a crash before the server is back loses nothing
        wait, self._backoff = self._backoff.next(retry_after(exc))
        self._retry.start(round(wait * 1000))
        self.owed.emit(say.saving_offline(exc).text)

    def _settled(self) -> None:
        """The server answered: nothing is owed, the next spell starts from the first wait."""
        self._owed = None
        self._retry.stop()
        self._backoff = self._backoff.reset()

    def render_preview(self, text: str) -> None:
        """``text`` rendered as the note's preview shows a note, on the runner (the newest
        asked wins); ``preview_ready`` gives the sanitised HTML."""
        self._preview_asked += 1
        asked = self._preview_asked

        def render() -> str:
            from app.render import render_markdown  # on the runner: it loads on first use

            return render_markdown(text)

        def done(html: str) -> None:
            if asked == self._preview_asked:
                self.preview_ready.emit(html)

        def failed(exc: BaseException) -> None:
            if asked == self._preview_asked:
                self.save_failed.emit(failure_text(exc))

        self._runner.submit(render, on_done=done, on_error=failed)

    def _merge(self, base: NoteDoc, mine: str) -> None:
        def fetch_and_merge() -> tuple[NoteDoc, str, int]:
            live = self._client.note_doc(self.display_path)
            if live.text == mine:  # an owed save that landed though its answer was lost
                return live, mine, -1
            result = merge_texts(base.text, live.text, mine)
            if result.is_clean and result.text is not None:
                return live, result.text, 0
            labels = MarkerLabels()
            return live, result.marked(labels).text, result.unresolved

        def done(found: tuple[NoteDoc, str, int]) -> None:
            live, text, conflicts = found
            if conflicts < 0:
                self._landed(live, text)
                return
            self.doc = live  # the new base: the next save goes at the live version
            self.phase = NotePhase.EDITING
            self.merged.emit(text, live.version, conflicts)

        def failed(exc: BaseException) -> None:
            if isinstance(exc, NotFound):
                self.phase = NotePhase.GONE
                self.gone.emit(DELETED_WHILE_OPEN)
                return
            self.phase = NotePhase.EDITING
            self.save_failed.emit(failure_text(exc))

        self._runner.submit(fetch_and_merge, on_done=done, on_error=failed)
