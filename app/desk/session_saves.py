"""Session transitions for saving: Save, Restore, and every answer a save can get.

Pure functions: (model, editor view, what happened) -> Step. No Qt, no I/O.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from app.client.errors import SaveUncertain, TaskdeskError, VersionConflict
from app.core.models import TaskDoc
from app.core.user_message import MessageKey
from app.desk import session_messages as say
from app.desk.save_intents import AfterSave, RestoreSave
from app.desk.session_effects import CacheTask, EditorView, Proceed, Saved, Step
from app.desk.session_model import PutRecord, SessionModel
from app.desk.session_steps import (
    AWAITING_THEIRS,
    CONFLICT,
    IDLE,
    SAVE_OWED,
    SAVING,
    adopt,
    back_online,
    fetch_live,
    go_offline,
    is_connection_trouble,
    put,
    remote_doc,
    remove_draft,
    schedule_retry,
    start_save,
)

log = logging.getLogger("app.desk.session")


def save(m: SessionModel, ed: EditorView) -> Step:
    """Saves the editor text on its base version; one save at a time, extras collapse.

    The shell writes the draft first (``flush_draft``): whatever happens next, Save has
    kept the operator's words on this computer.
    """
    s = Step(m)
    if m.agent_id is None or (m.base_version is None and m.live is None):
        s.refuse(say.still_loading())
        return s
    if m.phase in (CONFLICT, AWAITING_THEIRS):
        s.refuse(say.choose_first())
        return s
    if m.merge_open:
        s.refuse(say.merge_unresolved(m.merge_open))
        return s
    if m.phase is SAVING:
        s.model = replace(m, save_again=True)
        s.publish()
        return s
    if not m.dirty and m.phase is not SAVE_OWED and m.confirmed:
        s.say(say.no_changes())
        return s
    if m.offline:
        s.say(say.saving_while_offline())
    start_save(s, ed)
    return s


def save_then(m: SessionModel, ed: EditorView, intent: AfterSave) -> Step:
    """Save, and ``intent`` waits for this save (it replaces an older one): it runs once the
    text is confirmed, and is dropped on anything else (``settle_after_save``)."""
    return save(replace(m, after_save=intent), ed)


def settle_after_save(m: SessionModel, ed: EditorView) -> Step:
    """Once no save is out, what waited for it runs (the save is confirmed) or is dropped
    (refused, a conflict, the server away, typed since): it never waits for a later save."""
    s = Step(m)
    intent = m.after_save
    if intent is None or m.phase is SAVING:
        return s
    s.model = replace(m, after_save=None)
    if m.phase is IDLE and m.confirmed and not m.dirty:
        s.do(Proceed(intent))
    else:
        log.info("the save did not land as it was; %r will not happen", intent.purpose)
    return s


def merge_marked(m: SessionModel, ed: EditorView, open_conflicts: int | None) -> Step:
    """A merge is in the editor with ``open_conflicts`` still to resolve (None: no merge)."""
    return Step(replace(m, merge_open=open_conflicts))


def restore(m: SessionModel, ed: EditorView, version: int) -> Step:
    """Makes revision ``version`` the live Task again, as a new version."""
    s = Step(m)
    live = m.live
    if live is None or m.agent_id is None:
        return s
    if m.has_edits or m.phase is SAVING:
        s.say(say.restore_needs_no_edits())
        return s
    if version == live.version:
        s.say(say.already_live(version))
        return s
    content = m.text_of_version(version)
    if content is None:
        s.say(say.unknown_version(version))
        return s
    put(s, content, live.version, RestoreSave(version))
    return s


def _save_over(m: SessionModel) -> SessionModel:
    """The save's answer is in: no save is out any more."""
    return replace(m, phase=IDLE, put=None, save_again=False) if m.phase is SAVING else m


def put_done(m: SessionModel, ed: EditorView, record: PutRecord, doc: TaskDoc) -> Step:
    s = Step(m)
    if record.gen != m.gen:
        if doc.content == record.text:
            remove_draft(s, record.text, record.agent_id)
        return s
    landed(s, ed, record, doc)
    return s


def landed(s: Step, ed: EditorView, record: PutRecord, doc: TaskDoc) -> None:
    """The server holds ``doc`` after ``record`` was sent."""
    again = s.model.save_again
    s.model = _save_over(s.model)
    back_online(s)
    s.do(CacheTask(doc))
    typed_since = ed.edits != record.edit_seq
    if doc.content != record.text:
        s.model = replace(s.model, live=doc)
        s.say(say.stored_other_text(doc.version))
        s.publish()
        return
    if isinstance(record.reason, RestoreSave):
        if typed_since:
            remote_doc(s, ed, doc)
        else:
            adopt(s, doc, replace_editor=True)
            s.do(Saved(doc.version))
        s.say(say.restored(record.reason.version, doc.version))
        s.publish()
        return
    s.model = replace(
        s.model, base_version=doc.version, base_text=doc.content, live=doc, merge_open=None
    )
    if not typed_since:
        s.model = replace(s.model, dirty=False, confirmed=True)
        remove_draft(s, record.text)
        s.do(Saved(doc.version))
    s.say(say.saved(doc.version))
    if again and s.model.dirty:
        start_save(s, ed)
    s.publish()


def put_failed(m: SessionModel, ed: EditorView, record: PutRecord, exc: BaseException) -> Step:
    s = Step(m)
    if record.gen != m.gen:
        return s  # another agent is open now; the draft stays on disk for later
    again = m.save_again
    s.model = _save_over(m)
    if isinstance(record.reason, RestoreSave):
        _restore_failed(s, record.reason.version, exc)
    elif isinstance(exc, VersionConflict):
        s.model = replace(s.model, phase=AWAITING_THEIRS, confirmed=False)
        fetch_live(s)
    elif isinstance(exc, SaveUncertain):
        _uncertain(s, ed, record, exc)
    elif is_connection_trouble(exc):
        first = not s.model.offline
        s.model = replace(s.model, phase=SAVE_OWED)
        go_offline(s, exc)
        if first:
            s.say(say.saving_offline(exc))
    else:
        s.refuse(say.save_failed(exc))
        if not isinstance(exc, TaskdeskError):
            log.error("saving failed", exc_info=exc)
    if again and s.model.phase is not SAVE_OWED:
        log.info("a save queued behind a failed one was dropped with it")
    s.publish()
    return s


def _uncertain(s: Step, ed: EditorView, record: PutRecord, exc: SaveUncertain) -> None:
    live = exc.live
    if live is None:
        # The server may or may not hold our text: retrying on the same base is safe,
        # because if it did land the retry meets a 409 and then finds our own bytes.
        s.model = replace(s.model, phase=SAVE_OWED)
        go_offline(s, exc)
        s.say(say.save_uncertain(exc, MessageKey.OFFLINE))
        return
    s.do(CacheTask(live))
    if live.content == record.text:
        landed(s, ed, record, live)
        return
    back_online(s)
    if live.version == record.expected:
        s.model = replace(s.model, phase=SAVE_OWED)  # it did not land; send it again
        schedule_retry(s, None)
        s.say(say.save_uncertain(exc, MessageKey.SAVE))
        return
    remote_doc(s, ed, live)


def _restore_failed(s: Step, version: int, exc: BaseException) -> None:
    if isinstance(exc, VersionConflict):
        s.refuse(say.restore_overtaken(version))
        fetch_live(s)
    elif is_connection_trouble(exc) or isinstance(exc, SaveUncertain):
        s.refuse(say.restore_failed(version, exc))
        fetch_live(s)
    else:
        s.refuse(say.save_failed(exc))
