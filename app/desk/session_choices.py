"""Session transitions for the operator's choices: typing, Keep mine, Use theirs, Discard and
Undo, and answering a draft left from an earlier session.

Pure functions: (model, editor view, what was chosen) -> Step. No Qt, no I/O.
"""

from __future__ import annotations

from dataclasses import replace

from app.core.models import TaskDoc
from app.desk import session_messages as say
from app.desk.session_effects import (
    EditorView,
    KeepInHistory,
    Replacement,
    RestoreEditor,
    Step,
)
from app.desk.session_model import Discarded, SessionModel
from app.desk.session_steps import (
    AWAITING_THEIRS,
    CONFLICT,
    IDLE,
    SAVING,
    adopt,
    flush_draft,
    remote_doc,
    start_save,
    stop_retry,
)
from app.store.records import HistoryReason


def edited(m: SessionModel, ed: EditorView) -> Step:
    """The first keystroke after a load or a save: the editor now holds edits."""
    s = Step(replace(m, dirty=True, confirmed=False))
    s.publish()
    return s


def keep_mine(m: SessionModel, ed: EditorView) -> Step:
    """Saves the editor text over their version, knowingly (expected_version = theirs)."""
    s = Step(m)
    theirs = m.conflict
    if theirs is None:
        return s
    s.model = replace(
        m,
        phase=IDLE,
        conflict=None,
        base_version=theirs.version,
        base_text=theirs.content,
        live=theirs,
        dirty=True,
    )
    start_save(s, ed)
    s.publish()
    return s


def merged(m: SessionModel, ed: EditorView, theirs_version: int, text: str) -> Step:
    """Puts a merge of the editor text with their version in the editor, as an unsaved edit
    based on their version: the next Save is an ordinary one, expecting their version.

    The editor text as it was goes to local history first. A merge made against a version
    that is no longer the conflict's (someone saved again meanwhile) is not taken.
    """
    s = Step(m)
    theirs = m.conflict
    if theirs is None or theirs.version != theirs_version or m.agent_id is None:
        return s
    s.do(_editor_to_history(m, m.agent_id, ed, HistoryReason.MERGED, "keep your text"))
    s.model = replace(
        m,
        phase=IDLE,
        conflict=None,
        base_version=theirs.version,
        base_text=theirs.content,
        live=theirs if m.live is None or m.live.version <= theirs.version else m.live,
        dirty=True,
        confirmed=False,
    )
    s.do(RestoreEditor(text))
    s.then(flush_draft)
    s.say(say.merged(theirs.version))
    s.publish()
    return s


def unmerged(
    m: SessionModel,
    ed: EditorView,
    theirs: TaskDoc,
    text: str,
    base_version: int | None,
    base_text: str | None,
) -> Step:
    """Leaves a merge not yet saved: the text as it was before it, and their version as a
    conflict again, for another choice. The merged text goes to local history."""
    s = Step(m)
    if m.agent_id is None or m.phase is not IDLE or m.base_version != theirs.version:
        return s  # saved, saving or replaced meanwhile: the merge is no longer there to leave
    s.do(_editor_to_history(m, m.agent_id, ed, HistoryReason.DISCARDED, "keep the merged text"))
    s.model = replace(
        m,
        phase=CONFLICT,
        conflict=theirs,
        base_version=base_version,
        base_text=base_text,
        dirty=True,
        confirmed=False,
    )
    s.do(RestoreEditor(text))
    s.then(flush_draft)
    s.publish()
    return s


def use_theirs(m: SessionModel, ed: EditorView) -> Step:
    """Loads their version; the editor text goes to local history first."""
    s = Step(m)
    if m.conflict is not None:
        _keep_then_show(s, ed, HistoryReason.USED_THEIRS, Replacement(m.conflict, False))
    return s


def discard(m: SessionModel, ed: EditorView) -> Step:
    """Drops the edits (kept in local history, and ``undo_discard`` brings them back)."""
    s = Step(m)
    if m.agent_id is None or not m.has_edits:
        s.say(say.nothing_to_discard())
        return s
    target = m.conflict or m.live
    if target is not None:
        _keep_then_show(s, ed, HistoryReason.DISCARDED, Replacement(target, True))
    return s


def _editor_to_history(
    m: SessionModel,
    agent_id: str,
    ed: EditorView,
    reason: HistoryReason,
    action: str,
    then: Replacement | None = None,
) -> KeepInHistory:
    """The effect that keeps the editor's text in local history (``action`` says what, for a
    failure message: "… in local history" is added)."""
    return KeepInHistory(
        gen=m.gen,
        agent_id=agent_id,
        text=ed.text(),
        reason=reason,
        base_version=m.base_version,
        agent_name=m.agent_name,
        action=f"{action} in local history",
        replacement=then,
    )


def _keep_then_show(s: Step, ed: EditorView, reason: HistoryReason, then: Replacement) -> None:
    """Moves the editor text (and its draft) to local history; ``kept_in_history`` follows.

    The editor is replaced only once the history holds the text: a failed write leaves the
    editor as it was, so nothing is lost.
    """
    m = s.model
    if m.agent_id is None:
        return
    s.do(_editor_to_history(m, m.agent_id, ed, reason, "keep your text", then))


def kept_in_history(m: SessionModel, ed: EditorView, kept: KeepInHistory) -> Step:
    """Local history holds ``kept.text``: the editor may show the replacement now."""
    s = Step(m)
    if kept.gen != m.gen or kept.replacement is None:
        return s
    if ed.text() != kept.text:
        # Typed meanwhile: keep that too, then go on.
        _keep_then_show(s, ed, kept.reason, kept.replacement)
        return s
    _replace_with(s, kept.replacement, kept.text, kept.base_version)
    return s


def _replace_with(s: Step, then: Replacement, text: str, base: int | None) -> None:
    m = s.model
    if m.phase in (CONFLICT, AWAITING_THEIRS):
        s.model = replace(m, phase=IDLE, conflict=None)
    stop_retry(s)
    adopt(s, then.doc, replace_editor=True)
    if then.discarding:
        base_text = s.model.text_of_version(base) if base else None
        s.model = replace(s.model, discarded=Discarded(text, base, base_text))
        s.say(say.discarded())
    else:
        s.say(say.used_theirs(then.doc.version))
    s.publish()


def undo_discard(m: SessionModel, ed: EditorView) -> Step:
    """Brings back the text the last Discard dropped, on the version it was typed on."""
    dropped = m.discarded
    if dropped is None:
        return Step(m)
    model = replace(m, discarded=None, dirty=True, confirmed=False)
    if dropped.base_version is not None and dropped.base_version != m.base_version:
        # Typed on an older version: a save then meets a conflict, never an overwrite.
        model = replace(model, base_version=dropped.base_version, base_text=dropped.base_text)
    s = Step(model)
    s.do(RestoreEditor(dropped.text))
    s.then(flush_draft)
    s.publish()
    return s


def recover_draft(m: SessionModel, ed: EditorView) -> Step:
    """Puts the offered draft in the editor, on the version it was typed on."""
    offer = m.draft
    if offer is None:
        return Step(m)
    model = replace(m, draft=None, dirty=True, confirmed=False)
    if offer.base_version is not None and offer.base_version != m.base_version:
        model = replace(
            model,
            base_version=offer.base_version,
            base_text=m.text_of_version(offer.base_version),
        )
    s = Step(model)
    s.do(RestoreEditor(offer.text))
    s.then(_check_recovered)
    s.publish()
    return s


def _check_recovered(m: SessionModel, ed: EditorView) -> Step:
    s = Step(m)
    live = m.live
    # Typed on an older version: the operator chooses, nothing is overwritten. While a save
    # is out its answer decides, as for any read (``fetched``).
    if live is not None and m.fresh and live.version != m.base_version and m.phase is not SAVING:
        remote_doc(s, ed, live)
    return s


def dismiss_draft(m: SessionModel, ed: EditorView) -> Step:
    """Drops the offered draft, keeping its text in local history."""
    offer = m.draft
    if offer is None:
        return Step(m)
    s = Step(replace(m, draft=None))
    s.do(
        KeepInHistory(
            gen=m.gen,
            agent_id=offer.agent_id,
            text=offer.text,
            reason=HistoryReason.DISCARDED,
            base_version=offer.base_version,
            agent_name=m.agent_name,
            action="keep the draft in local history",
        )
    )
    s.publish()
    return s
