"""One note open for editing: load, save at the version read, and a conflict merged.

The note's own session, beside the Task's ``TaskSession``: a note has a version, earlier
texts, drafts kept on disk (``note_drafts``) and the same three-way merge
(``app.core.merge``), but no offline saves (docs/NOTES.md, "Not there yet"). A save someone
else beat is merged at once: a clean merge comes back as the new text to check and save
again; conflicts come back written out between markers, nothing lost either way.
"""

from __future__ import annotations

import enum
from typing import Protocol

from PySide6.QtCore import QObject, Signal

from app.client.errors import NotFound, VersionConflict
from app.core.merge import MarkerLabels, merge_texts
from app.core.models import Me
from app.core.note_uses import NoteDoc
from app.desk.failures import failure_text
from app.desk.note_drafts import NoteDrafts
from app.desk.runner import Runner
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

    def __init__(
        self,
        runner: Runner,
        client: NoteEditing,
        me: Me,
        display_path: str,
        parent: QObject | None = None,
        *,
        drafts: NoteDrafts | None = None,
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

    def save(self, text: str, title: str | None = None) -> None:
        """Save ``text`` at the version last read; a conflict is merged (``merged``)."""
        base = self.doc
        if base is None or self.phase is not NotePhase.EDITING:
            return
        self.phase = NotePhase.SAVING

        def put() -> NoteDoc:
            return self._client.put_note(self.display_path, text, base.version, title)

        def done(doc: NoteDoc) -> None:
            self.doc = doc
            self.phase = NotePhase.EDITING
            if self._drafts is not None:
                self._drafts.drop(self.display_path, text)
            self.saved.emit(doc)

        def failed(exc: BaseException) -> None:
            if isinstance(exc, VersionConflict):
                self._merge(base, text)
            elif isinstance(exc, NotFound):
                self.phase = NotePhase.GONE
                self.gone.emit(DELETED_WHILE_OPEN)
            else:
                self.phase = NotePhase.EDITING
                self.save_failed.emit(failure_text(exc))

        self._runner.submit(put, on_done=done, on_error=failed)

    def _merge(self, base: NoteDoc, mine: str) -> None:
        def fetch_and_merge() -> tuple[NoteDoc, str, int]:
            live = self._client.note_doc(self.display_path)
            result = merge_texts(base.text, live.text, mine)
            if result.is_clean and result.text is not None:
                return live, result.text, 0
            labels = MarkerLabels()
            return live, result.marked(labels).text, result.unresolved

        def done(found: tuple[NoteDoc, str, int]) -> None:
            live, text, conflicts = found
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
