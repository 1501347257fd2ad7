"""Session transitions for opening an agent and reading its Task: the cache, the server, retries.

Pure functions: (model, editor view, what happened) -> Step. No Qt, no I/O.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from app.core.models import TaskDoc
from app.desk import session_messages as say
from app.desk.failures import failure_text
from app.desk.session_effects import CacheTask, EditorView, ReadLocal, Step, StopRetry
from app.desk.session_model import Reading, SessionModel, SessionPhase, iso
from app.desk.session_state import DraftOffer
from app.desk.session_steps import (
    AWAITING_THEIRS,
    CONFLICT,
    IDLE,
    SAVE_OWED,
    SAVING,
    adopt,
    back_online,
    fetch_live,
    fetch_live_now,
    go_offline,
    is_connection_trouble,
    remote_doc,
    remove_draft,
    start_save,
    stop_retry,
)
from app.store.records import Cached, Draft


def open_agent(m: SessionModel, ed: EditorView, agent_id: str, agent_name: str) -> Step:
    """Shows ``agent_id``'s Task: the cached copy at once if there is one, then the live one."""
    s = Step(SessionModel.opened(m.gen + 1, agent_id, agent_name, m.backoff))
    s.do(StopRetry())
    s.publish()
    s.do(ReadLocal(s.model.gen, agent_id))
    s.then(fetch_live_now)
    return s


def local_read(
    m: SessionModel,
    ed: EditorView,
    gen: int,
    cached: Cached[TaskDoc] | None,
    draft: Draft | None,
) -> Step:
    """The offline copy and the draft of the agent, read from this computer."""
    s = Step(m)
    if gen != m.gen:
        return s
    s.model = replace(m, local_done=True)
    if cached is not None and not m.fresh and not m.dirty:
        adopt(s, cached.value, replace_editor=True)
        s.model = replace(
            s.model,
            from_cache=True,
            confirmed=False,  # the server has not said it still holds this text
            loading=False,
            last_contact=iso(cached.fetched_at),
        )
    if draft is not None:
        live = s.model.live
        if s.model.fresh and live is not None and draft.text == live.content:
            remove_draft(s, draft.text)  # the server holds exactly these bytes
        else:
            offer = DraftOffer(
                agent_id=draft.agent_id,
                text=draft.text,
                base_version=draft.base_version,
                saved_at=iso(draft.saved_at),
            )
            s.model = replace(s.model, draft=offer)
            s.say(say.draft_found(m.agent_name, offer.base_version, offer.saved_at))
    tell_offline(s)
    s.publish()
    return s


def local_failed(m: SessionModel, ed: EditorView, gen: int, exc: BaseException) -> Step:
    s = Step(m)
    if gen != m.gen:
        return s
    s.model = replace(m, local_done=True)
    s.say(say.store_failed(exc, "read the offline copy and drafts"))
    tell_offline(s)
    s.publish()
    return s


def fetched(m: SessionModel, ed: EditorView, gen: int, doc: TaskDoc, at: datetime) -> Step:
    """The live Task arrived (``at``: now, by the session's clock)."""
    s = Step(m)
    if gen != m.gen:
        return s
    if m.reading is Reading.OUT_AND_AGAIN:
        # This read may predate what prompted the newer request (a 409): ask again.
        s.model = replace(m, reading=Reading.IDLE)
        fetch_live(s)
        return s
    s.model = replace(
        m,
        reading=Reading.IDLE,
        fresh=True,
        last_contact=iso(at),
        loading=False,
        from_cache=False,
    )
    back_online(s)
    s.do(CacheTask(doc))
    if s.model.phase is SAVING:
        # A save is in flight: its answer decides; this read may predate it.
        s.publish()
        return s
    was_awaiting = s.model.phase is AWAITING_THEIRS
    if was_awaiting:
        s.model = replace(s.model, phase=IDLE)
    remote_doc(s, ed, doc)
    if was_awaiting and s.model.phase is not CONFLICT and s.model.has_edits:
        # The server said "conflict" but holds the very version the edits are based on.
        s.say(say.refused_yet_unchanged(doc.version))
    draft = s.model.draft
    if draft is not None and draft.text == doc.content:
        remove_draft(s, draft.text)
        s.model = replace(s.model, draft=None)
    if s.model.phase is SAVE_OWED:
        start_save(s, ed)  # the server is back: the owed save goes out now
    s.publish()
    return s


def fetch_failed(m: SessionModel, ed: EditorView, gen: int, exc: BaseException) -> Step:
    s = Step(m)
    if gen != m.gen:
        return s
    s.model = replace(m, reading=Reading.IDLE)
    if is_connection_trouble(exc):
        first = not m.offline
        go_offline(s, exc)
        if first:
            s.model = replace(s.model, offline_news=failure_text(exc))
    else:
        s.model = replace(s.model, loading=False)
        s.say(say.load_failed(exc))
    tell_offline(s)
    s.publish()
    return s


def tell_offline(s: Step) -> None:
    """Says the server is gone, once the cache has been looked at (it decides the words)."""
    m = s.model
    reason = m.offline_news
    if reason is None or not m.local_done:
        return
    s.model = replace(m, offline_news=None, loading=False)
    if m.live is None:
        s.say(say.offline_without_copy(reason))
    elif not m.fresh:
        s.say(say.offline_showing_copy(m.last_contact))
    else:
        s.say(say.offline_edits_kept(reason))


def retry_now(m: SessionModel, ed: EditorView) -> Step:
    """Tries the server at once: the owed save if there is one, else a fresh read."""
    s = Step(m)
    stop_retry(s)
    if m.agent_id is None or m.phase is SAVING:
        return s
    if m.phase is SAVE_OWED and m.fresh:
        start_save(s, ed)
        return s
    # Otherwise read first: if this session never heard from the server, a newer version
    # someone saved meanwhile must turn into a conflict instead of being overwritten.
    fetch_live(s)
    return s


def check_remote(m: SessionModel, ed: EditorView) -> Step:
    """A cheap conditional GET: a newer version loads (no edits) or raises a conflict."""
    s = Step(m)
    if m.phase is not SessionPhase.SAVING:
        fetch_live(s)
    return s


def poll(m: SessionModel, ed: EditorView) -> Step:
    """The periodic check; while offline the retry timer paces the tries instead."""
    return check_remote(m, ed) if not m.offline else Step(m)


def stop_retrying(m: SessionModel, ed: EditorView) -> Step:
    s = Step(m)
    stop_retry(s)
    return s
