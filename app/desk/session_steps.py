"""The building blocks of the session's transitions: pure, on a Step, shared by all of them.

Rules every transition keeps, so that the shell can perform effects in order and a
synchronous runner (whose answers arrive inside ``submit``) sees what an asynchronous one
would: a step never reads the editor after it asked to replace the editor's text, and never
changes the model after asking for work whose answer changes it (``Fetch``, ``SendPut``,
``ReadLocal``, ``KeepInHistory``); what follows such work is a ``Then``.
"""

from __future__ import annotations

from dataclasses import replace

from app.client.errors import Offline, RateLimited, ServerError
from app.core.limits import TASK_MAX_BYTES, utf8_len
from app.core.models import TaskDoc
from app.desk import session_messages as say
from app.desk.save_intents import EDIT, MergeSave, RestoreSave, SaveReason
from app.desk.session_effects import (
    EditorView,
    Fetch,
    LoadEditor,
    RemoveDraft,
    SendPut,
    StartRetry,
    Step,
    StopDraftTimers,
    StopRetry,
    WriteDraft,
)
from app.desk.session_model import PutRecord, Reading, SessionModel, SessionPhase

IDLE = SessionPhase.IDLE
SAVING = SessionPhase.SAVING
SAVE_OWED = SessionPhase.SAVE_OWED
AWAITING_THEIRS = SessionPhase.AWAITING_THEIRS
CONFLICT = SessionPhase.CONFLICT


def is_connection_trouble(exc: BaseException) -> bool:
    """Failures that pass: the server is down, overloaded or unreachable for now."""
    return isinstance(exc, Offline | ServerError | RateLimited)


def retry_after(exc: BaseException) -> float | None:
    """When the server said to try again, if it did."""
    return exc.retry_after if isinstance(exc, ServerError | RateLimited) else None


# ---------------------------------------------------------------------- the text on screen


def adopt(s: Step, doc: TaskDoc, *, replace_editor: bool) -> None:
    """``doc`` becomes the base; the editor holds (or is given) exactly its text."""
    m = s.model
    s.model = replace(
        m,
        base_version=doc.version,
        base_text=doc.content,
        live=doc,
        dirty=False,
        phase=IDLE if m.phase is SAVE_OWED else m.phase,  # nothing is owed any more
        save_again=False,
        confirmed=True,
        loading=False,
    )
    if replace_editor:
        s.do(LoadEditor(doc))


def raise_conflict(s: Step, theirs: TaskDoc) -> None:
    s.model = replace(
        s.model, phase=CONFLICT, conflict=theirs, confirmed=False, put=None, save_again=False
    )
    stop_retry(s)
    s.say(say.someone_saved(theirs))


def remote_doc(s: Step, ed: EditorView, doc: TaskDoc) -> None:
    """The server's live Task, just read: load it, adopt it, or raise a conflict."""
    s.model = m = replace(s.model, live=doc)
    if doc.version == m.base_version and doc.content == m.base_text:
        if not m.dirty and m.phase is not SAVE_OWED:
            s.model = replace(m, confirmed=True)
        return
    if m.base_version is None or not m.has_edits:
        newer = m.base_version is not None
        adopt(s, doc, replace_editor=True)
        if newer:
            s.say(say.loaded_newer(doc))
        return
    text = ed.text()
    if text == doc.content:
        # Someone (or our own uncertain save) put exactly this text there: nothing to choose.
        adopt(s, doc, replace_editor=False)
        remove_draft(s, text)
        return
    if doc.version == m.base_version:
        s.model = replace(m, base_text=doc.content)
        return
    if m.conflict is not None and m.conflict.version == doc.version:
        s.model = replace(m, conflict=doc)  # the same news again: the banner already says it
        return
    raise_conflict(s, doc)


# ---------------------------------------------------------------------- the server


def fetch_live(s: Step) -> None:
    """A (conditional) GET of the live Task; its answer comes to ``fetched``."""
    m = s.model
    if m.agent_id is None:
        return
    if m.reading is not Reading.IDLE:
        s.model = replace(m, reading=Reading.OUT_AND_AGAIN)
        return
    s.model = replace(m, reading=Reading.OUT)
    s.do(Fetch(m.gen, m.agent_id))
    s.publish()


def fetch_live_now(m: SessionModel, ed: EditorView) -> Step:
    s = Step(m)
    fetch_live(s)
    return s


def go_offline(s: Step, exc: BaseException) -> None:
    s.model = replace(s.model, offline=True)
    schedule_retry(s, retry_after(exc))


def back_online(s: Step) -> None:
    if s.model.offline:
        s.say(say.server_back())
    s.model = replace(s.model, offline=False, backoff=s.model.backoff.reset())
    stop_retry(s)


def schedule_retry(s: Step, server_says: float | None) -> None:
    wait, backoff = s.model.backoff.next(server_says)
    s.model = replace(s.model, retry_in=wait, backoff=backoff)
    s.do(StartRetry(wait))


def stop_retry(s: Step) -> None:
    if s.model.retry_in is not None:
        s.model = replace(s.model, retry_in=None)
    s.do(StopRetry())


# ---------------------------------------------------------------------- saving


def start_save(s: Step, ed: EditorView) -> None:
    """Saves the editor text on its base version (the phase is IDLE or SAVE_OWED)."""
    text = ed.text()
    size = utf8_len(text)
    if size > TASK_MAX_BYTES:
        s.model = replace(s.model, phase=IDLE)
        s.refuse(say.too_large(size))
        s.then(flush_draft)
        s.publish()
        return
    m = s.model
    reason = EDIT if m.merge_open is None else MergeSave(m.base_version)
    put(s, text, m.base_version, reason)


def put(s: Step, text: str, expected: int | None, reason: SaveReason = EDIT) -> None:
    if not isinstance(reason, RestoreSave) and s.model.dirty:
        s.then(flush_draft)  # a crash while the save is out still finds the text
    s.then(lambda m, ed: send_put(m, ed, text, expected, reason))


def send_put(
    m: SessionModel, ed: EditorView, text: str, expected: int | None, reason: SaveReason
) -> Step:
    assert m.agent_id is not None and m.phase is not SAVING
    record = PutRecord(m.gen, m.agent_id, text, expected, ed.edits, reason)
    s = Step(replace(m, phase=SAVING, put=record, conflict=None))
    stop_retry(s)
    s.publish()
    s.do(SendPut(record))
    return s


# ---------------------------------------------------------------------- drafts


def flush_draft(m: SessionModel, ed: EditorView) -> Step:
    """Writes the editor text as a draft now (the timers call this; so do save and close)."""
    s = Step(m)
    s.do(StopDraftTimers())
    if m.agent_id is None or not m.dirty:
        return s
    if m.drafted_edits == ed.edits:
        return s  # exactly these edits are on disk already (Save flushes, then its PUT would)
    text = ed.text()
    if text == m.base_text and m.phase in (IDLE, SAVE_OWED):
        # Typed back to the server's own text: nothing unsaved remains.
        s.model = replace(
            m,
            dirty=False,
            phase=IDLE,
            confirmed=m.live is not None and m.live.version == m.base_version,
        )
        remove_draft(s, text)
        s.publish()
        return s
    s.model = replace(m, drafted_edits=ed.edits)
    s.do(WriteDraft(m.agent_id, text, m.base_version, m.agent_name))
    return s


def remove_draft(s: Step, confirmed_text: str, agent_id: str | None = None) -> None:
    agent = agent_id or s.model.agent_id
    if agent is not None:
        s.do(RemoveDraft(agent, confirmed_text))
