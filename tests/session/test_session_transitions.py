"""The session's transitions on their own: pure functions from a model to the next, no Qt.

Each test drives the model by hand with what the server or the store answered, and looks at
the phase, the state the window would draw, and the effects asked for, in order.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from datetime import timedelta

import pytest

from app.client.errors import (
    BadResponse,
    InvalidRequest,
    Offline,
    SaveUncertain,
    ServerError,
    VersionConflict,
)
from app.core.limits import TASK_MAX_BYTES
from app.core.user_message import MessageKey
from app.desk import session_choices as choices
from app.desk import session_reads as reads
from app.desk import session_saves as saves
from app.desk.retry_backoff import RetryBackoff
from app.desk.save_intents import AfterSave, MergeSave, RestoreSave
from app.desk.session_effects import (
    CacheTask,
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
    WriteDraft,
)
from app.desk.session_model import PutRecord, Reading, SessionModel, SessionPhase
from app.desk.session_steps import flush_draft
from app.store.records import Cached, Draft, HistoryReason
from tests.session.machine_env import AGENT, NOW, Editor, doc, of, opened_on, run, said

Phase = SessionPhase


def typed(model: SessionModel, editor: Editor, text: str) -> SessionModel:
    """The operator types ``text`` (the session notes the first keystroke as an edit)."""
    editor.type(text)
    if not model.dirty or model.confirmed:
        model, _ = run(model, choices.edited, editor)
    return model


def saving(model: SessionModel, editor: Editor) -> tuple[SessionModel, PutRecord]:
    """Save, as the session does it: the draft first, then the save itself."""
    model, _ = run(model, flush_draft, editor)
    model, effects = run(model, saves.save, editor)
    [sent] = of(SendPut, effects)
    assert isinstance(sent, SendPut)
    return model, sent.put


# ---------------------------------------------------------------------- opening


def test_open_reads_this_computer_then_the_server() -> None:
    editor = Editor()
    model, effects = run(SessionModel(), lambda m, ed: reads.open_agent(m, ed, AGENT, ""), editor)
    assert model.phase is Phase.IDLE and model.loading and model.agent_name == AGENT
    assert model.reading is Reading.OUT
    assert effects == [StopRetry(), Publish(), ReadLocal(1, AGENT), Fetch(1, AGENT), Publish()]


def test_the_cached_copy_shows_at_once_but_is_not_called_saved() -> None:
    editor = Editor()
    model, _ = run(SessionModel(), lambda m, ed: reads.open_agent(m, ed, AGENT, ""), editor)
    cached = Cached(doc(3, "cached text"), NOW - timedelta(hours=1))
    model, effects = run(model, lambda m, ed: reads.local_read(m, ed, 1, cached, None), editor)
    assert editor.now == "cached text" and LoadEditor(cached.value) in effects
    state = model.snapshot()
    assert state.from_cache and not state.saved_text_confirmed and not state.loading
    assert model.last_contact == "2026-03-04T04:06:07Z"


def test_a_draft_left_from_an_earlier_session_is_offered() -> None:
    editor = Editor()
    model, _ = run(
        SessionModel(),
        lambda m, ed: reads.open_agent(m, ed, AGENT, "Writer"),
        editor,
    )
    draft = Draft("server", AGENT, "Writer", "never saved", 2, NOW)
    model, effects = run(model, lambda m, ed: reads.local_read(m, ed, 1, None, draft), editor)
    assert model.draft is not None and model.draft.text == "never saved"
    [message] = [e.message for e in effects if isinstance(e, Say)]
    assert message.key is MessageKey.DRAFT
    assert message.text == (
        "A draft of Writer based on v2 from 2026-03-04T05:06:07Z was never saved. Recover it?"
    )


def test_answers_meant_for_an_earlier_agent_are_ignored() -> None:
    editor = Editor()
    model = opened_on(doc(3, "live"), editor)
    later = replace(model, gen=model.gen + 1)
    for transition in (
        lambda m, ed: reads.fetched(m, ed, model.gen, doc(9, "old agent"), NOW),
        lambda m, ed: reads.fetch_failed(m, ed, model.gen, Offline()),
        lambda m, ed: reads.local_read(m, ed, model.gen, None, None),
    ):
        assert run(later, transition, editor) == (later, [])


def test_the_server_away_on_open_is_said_once_the_cache_is_known() -> None:
    editor = Editor()
    model, _ = run(SessionModel(), lambda m, ed: reads.open_agent(m, ed, AGENT, ""), editor)
    model, effects = run(model, lambda m, ed: reads.fetch_failed(m, ed, 1, Offline()), editor)
    assert model.offline and said(effects) == []  # the words depend on the cache
    model, effects = run(model, lambda m, ed: reads.local_read(m, ed, 1, None, None), editor)
    assert said(effects) == [
        f"{Offline().message} No copy of this Task is kept on this computer yet; "
        "Taskdesk keeps trying."
    ]
    assert not model.loading


# ---------------------------------------------------------------------- reading the live Task


def test_the_live_task_loads_and_is_confirmed() -> None:
    editor = Editor()
    live = doc(3, "live text")
    model = opened_on(live, editor)
    assert editor.now == "live text"
    assert model.base_version == 3 and model.confirmed and not model.loading
    assert model.fresh and model.last_contact == "2026-03-04T05:06:07Z"


def test_a_newer_version_while_editing_is_a_conflict_and_save_waits_for_a_choice() -> None:
    editor = Editor()
    model = typed(opened_on(doc(3, "live"), editor), editor, "mine")
    theirs = doc(4, "theirs", "Bob")
    model, effects = run(model, lambda m, ed: reads.fetched(m, ed, m.gen, theirs, NOW), editor)
    assert model.phase is Phase.CONFLICT and model.conflict == theirs
    assert said(effects) == [
        "Bob saved v4 while you were editing. Your text is kept: Compare, then Keep mine or "
        "Use theirs."
    ]
    assert editor.now == "mine" and model.snapshot().has_unsaved
    model, effects = run(model, flush_draft, editor)
    model, effects = run(model, saves.save, editor)
    assert of(SendPut, effects) == [] and "choose Keep mine or Use theirs" in said(effects)[0]


def test_a_newer_version_without_edits_simply_loads() -> None:
    editor = Editor()
    model = opened_on(doc(3, "live"), editor)
    newer = doc(4, "newer", "Bob")
    model, effects = run(model, lambda m, ed: reads.fetched(m, ed, m.gen, newer, NOW), editor)
    assert editor.now == "newer" and model.base_version == 4 and model.phase is Phase.IDLE
    assert said(effects) == ["Loaded v4, saved by Bob."]


# ---------------------------------------------------------------------- saving


def test_save_writes_the_draft_first_then_sends_one_put() -> None:
    editor = Editor()
    model = typed(opened_on(doc(3, "live"), editor), editor, "mine")
    model, flushed = run(model, flush_draft, editor)
    assert of(WriteDraft, flushed)  # a crash while the PUT is out still finds the text
    model, effects = run(model, saves.save, editor)
    # The draft of exactly these edits is on disk already: the PUT goes without a second write.
    assert [type(e) for e in effects if not isinstance(e, Publish | StopRetry)] == [
        StopDraftTimers,
        SendPut,
    ]
    [sent] = of(SendPut, effects)
    assert isinstance(sent, SendPut)
    assert sent.put == PutRecord(model.gen, AGENT, "mine", 3, editor.edits)
    assert model.phase is Phase.SAVING and model.snapshot().saving


def test_a_confirmed_save_clears_the_edits_and_the_draft() -> None:
    editor = Editor()
    model = typed(opened_on(doc(3, "live"), editor), editor, "mine")
    model, put = saving(model, editor)
    model, effects = run(model, lambda m, ed: saves.put_done(m, ed, put, doc(4, "mine")), editor)
    assert model.phase is Phase.IDLE and model.confirmed and not model.dirty
    assert model.base_version == 4 and RemoveDraft(AGENT, "mine") in effects
    assert CacheTask(doc(4, "mine")) in effects and said(effects) == ["Saved as v4."]


def test_saves_asked_for_during_a_save_collapse_into_one_more() -> None:
    editor = Editor()
    model = typed(opened_on(doc(3, "live"), editor), editor, "mine")
    model, put = saving(model, editor)
    for _ in range(3):
        model, _ = run(model, saves.save, editor)
    assert model.save_again and model.snapshot().pending_save
    editor.type("mine, more")  # typed while the save was out
    model, effects = run(model, lambda m, ed: saves.put_done(m, ed, put, doc(4, "mine")), editor)
    assert model.dirty and not model.confirmed  # the editor holds more than was saved
    [again] = of(SendPut, effects)
    assert isinstance(again, SendPut) and again.put.text == "mine, more"
    assert again.put.expected == 4 and model.phase is Phase.SAVING


def test_a_409_reads_their_version_and_then_asks() -> None:
    editor = Editor()
    model = typed(opened_on(doc(3, "live"), editor), editor, "mine")
    model, put = saving(model, editor)
    model, effects = run(
        model, lambda m, ed: saves.put_failed(m, ed, put, VersionConflict(4)), editor
    )
    assert model.phase is Phase.AWAITING_THEIRS and of(Fetch, effects)
    model, _ = run(model, saves.save, editor)  # nothing goes out while we find out
    assert model.phase is Phase.AWAITING_THEIRS
    theirs = doc(4, "theirs")
    model, _ = run(model, lambda m, ed: reads.fetched(m, ed, m.gen, theirs, NOW), editor)
    assert model.phase is Phase.CONFLICT and model.conflict == theirs


def test_a_409_from_a_server_still_on_our_version_says_so() -> None:
    editor = Editor()
    live = doc(3, "live")
    model = typed(opened_on(live, editor), editor, "mine")
    model, put = saving(model, editor)
    model, _ = run(model, lambda m, ed: saves.put_failed(m, ed, put, VersionConflict(3)), editor)
    model, effects = run(model, lambda m, ed: reads.fetched(m, ed, m.gen, live, NOW), editor)
    assert model.phase is Phase.IDLE and model.dirty
    assert said(effects) == [
        "The server refused the save as a conflict, but its Task is still v3, the version you "
        "edited. Your text is kept; save again."
    ]


def test_a_save_while_the_server_is_away_is_owed_and_retried_with_backoff() -> None:
    editor = Editor()
    backoff = RetryBackoff(first_s=1, cap_s=60)
    model = typed(opened_on(doc(3, "live"), editor, backoff), editor, "mine")
    model, put = saving(model, editor)
    model, effects = run(model, lambda m, ed: saves.put_failed(m, ed, put, Offline()), editor)
    assert model.phase is Phase.SAVE_OWED and model.offline
    assert StartRetry(1.0) in effects and model.snapshot().retry_in_s == 1.0
    assert len(said(effects)) == 1 and "will be saved when the server is back" in said(effects)[0]
    model, effects = run(model, reads.retry_now, editor)
    [again] = of(SendPut, effects)
    assert isinstance(again, SendPut)
    model, effects = run(model, lambda m, ed: saves.put_failed(m, ed, again.put, Offline()), editor)
    assert StartRetry(2.0) in effects and said(effects) == []  # said once per spell
    model, effects = run(
        model, lambda m, ed: reads.fetched(m, ed, m.gen, doc(3, "live"), NOW), editor
    )
    assert said(effects)[0] == "The server is back." and not model.offline
    assert [e.put.text for e in of(SendPut, effects) if isinstance(e, SendPut)] == ["mine"]


def test_the_servers_retry_after_wins_over_the_backoff() -> None:
    editor = Editor()
    model = typed(opened_on(doc(3, "live"), editor, RetryBackoff(5, 60)), editor, "mine")
    model, put = saving(model, editor)
    busy = ServerError(503, retry_after=1)
    model, effects = run(model, lambda m, ed: saves.put_failed(m, ed, put, busy), editor)
    assert StartRetry(1.0) in effects and model.retry_in == 1.0


def test_a_redirect_answering_a_save_is_a_refusal_and_nothing_is_read() -> None:
    """The one error of this kind the client raises from a save (it confirms garbled
    successes itself): a redirect, which was never a save."""
    editor = Editor()
    model = typed(opened_on(doc(3, "live"), editor), editor, "mine")
    model, put = saving(model, editor)
    problem = BadResponse("The server answered with a redirect (HTTP 307).", status=307)
    model, effects = run(model, lambda m, ed: saves.put_failed(m, ed, put, problem), editor)
    assert model.phase is Phase.IDLE and model.dirty and not model.confirmed
    assert not of(Fetch, effects) and said(effects) == [problem.message]


def test_an_uncertain_save_that_did_not_land_is_sent_again() -> None:
    editor = Editor()
    live = doc(3, "live")
    model = typed(opened_on(live, editor), editor, "mine")
    model, put = saving(model, editor)
    model, effects = run(
        model, lambda m, ed: saves.put_failed(m, ed, put, SaveUncertain(live, "Not saved.")), editor
    )
    assert model.phase is Phase.SAVE_OWED and not model.offline
    assert any(isinstance(e, StartRetry) for e in effects) and said(effects) == ["Not saved."]


def test_typing_back_to_the_servers_text_leaves_nothing_unsaved() -> None:
    editor = Editor()
    model = typed(opened_on(doc(3, "live"), editor), editor, "live, changed")
    editor.type("live")
    model, effects = run(model, flush_draft, editor)
    assert not model.dirty and model.confirmed and not model.snapshot().has_unsaved
    assert RemoveDraft(AGENT, "live") in effects and of(WriteDraft, effects) == []


def test_a_task_over_the_limit_is_kept_as_a_draft_and_not_sent() -> None:
    editor = Editor()
    too_big = "x" * (TASK_MAX_BYTES + 1)
    model = typed(opened_on(doc(3, "live"), editor), editor, too_big)
    model, flushed = run(model, flush_draft, editor)
    model, effects = run(model, saves.save, editor)
    assert of(SendPut, effects) == [] and model.phase is Phase.IDLE
    assert of(WriteDraft, flushed) and said(effects)[0].startswith("The Task is 262,145 bytes")


# ---------------------------------------------------------------------- the operator's choices


def in_conflict(editor: Editor) -> SessionModel:
    model = typed(opened_on(doc(3, "v3 text", earlier=2), editor), editor, "mine")
    theirs = doc(4, "theirs", "Bob", earlier=3)
    model, _ = run(model, lambda m, ed: reads.fetched(m, ed, m.gen, theirs, NOW), editor)
    assert model.phase is Phase.CONFLICT
    return model


def test_keep_mine_saves_over_their_version_knowingly() -> None:
    editor = Editor()
    model, effects = run(in_conflict(editor), choices.keep_mine, editor)
    [sent] = of(SendPut, effects)
    assert isinstance(sent, SendPut) and sent.put.expected == 4 and sent.put.text == "mine"
    assert model.phase is Phase.SAVING and model.conflict is None


def test_use_theirs_replaces_the_editor_only_once_history_holds_the_text() -> None:
    editor = Editor()
    model, effects = run(in_conflict(editor), choices.use_theirs, editor)
    [keep] = of(KeepInHistory, effects)
    assert isinstance(keep, KeepInHistory)
    assert keep.text == "mine" and keep.reason is HistoryReason.USED_THEIRS
    assert editor.now == "mine" and of(LoadEditor, effects) == []
    editor.type("mine, still typing")  # typed while the history write was out
    model, effects = run(model, lambda m, ed: choices.kept_in_history(m, ed, keep), editor)
    [again] = of(KeepInHistory, effects)
    assert isinstance(again, KeepInHistory) and again.text == "mine, still typing"
    model, effects = run(model, lambda m, ed: choices.kept_in_history(m, ed, again), editor)
    assert editor.now == "theirs" and model.phase is Phase.IDLE and model.base_version == 4
    assert said(effects) == ["Loaded v4; your text is kept in local history."]


def test_a_merge_is_an_unsaved_edit_on_their_version_and_mine_goes_to_history() -> None:
    editor = Editor()
    model, effects = run(
        in_conflict(editor), lambda m, ed: choices.merged(m, ed, 4, "mine and theirs"), editor
    )
    [keep] = of(KeepInHistory, effects)
    assert isinstance(keep, KeepInHistory)
    assert keep.text == "mine" and keep.reason is HistoryReason.MERGED
    assert editor.now == "mine and theirs"
    assert model.phase is Phase.IDLE and model.conflict is None and model.dirty
    assert (model.base_version, model.base_text) == (4, "theirs")  # a save expects theirs
    assert of(SendPut, effects) == []  # nothing is published until a save
    assert WriteDraft(AGENT, "mine and theirs", 4, "Writer") in effects
    model, effects = run(model, saves.save, editor)
    [sent] = of(SendPut, effects)
    assert isinstance(sent, SendPut) and sent.put.expected == 4
    assert sent.put.text == "mine and theirs"


def test_a_merge_with_a_version_no_longer_in_conflict_is_not_taken() -> None:
    editor = Editor()
    before = in_conflict(editor)
    model, effects = run(before, lambda m, ed: choices.merged(m, ed, 5, "stale"), editor)
    assert model == before and effects == [] and editor.now == "mine"


def test_cancel_merge_brings_my_text_and_the_question_back() -> None:
    editor = Editor()
    conflict = in_conflict(editor)
    theirs = conflict.conflict
    assert theirs is not None
    model, _ = run(conflict, lambda m, ed: choices.merged(m, ed, 4, "merged"), editor)
    model, effects = run(
        model, lambda m, ed: choices.unmerged(m, ed, theirs, "mine", 3, "v3 text"), editor
    )
    assert editor.now == "mine" and model.phase is Phase.CONFLICT and model.conflict == theirs
    assert (model.base_version, model.base_text) == (3, "v3 text")
    [keep] = of(KeepInHistory, effects)
    assert isinstance(keep, KeepInHistory) and keep.text == "merged"
    assert WriteDraft(AGENT, "mine", 3, "Writer") in effects


def test_discard_then_undo_brings_the_text_back_on_its_version() -> None:
    editor = Editor()
    model, effects = run(in_conflict(editor), choices.discard, editor)
    [keep] = of(KeepInHistory, effects)
    assert isinstance(keep, KeepInHistory) and keep.base_version == 3
    model, _ = run(model, lambda m, ed: choices.kept_in_history(m, ed, keep), editor)
    assert editor.now == "theirs" and not model.snapshot().has_unsaved
    model, effects = run(model, choices.undo_discard, editor)
    assert editor.now == "mine" and RestoreEditor("mine") in effects
    assert model.dirty and model.base_version == 3 and model.base_text == "v3 text"
    assert WriteDraft(AGENT, "mine", 3, "Writer") in effects  # on disk at once


def test_restore_asks_for_a_clean_editor_and_sends_a_restoring_put() -> None:
    editor = Editor()
    model = opened_on(doc(5, "live", earlier=3), editor)
    _, effects = run(typed(model, Editor(), "edits"), lambda m, ed: saves.restore(m, ed, 3), editor)
    assert said(effects) == ["Save or discard your edits before restoring an earlier version."]
    _, effects = run(model, lambda m, ed: saves.restore(m, ed, 1), editor)
    assert said(effects) == ["v1 is not among the versions the server keeps."]
    model, effects = run(model, lambda m, ed: saves.restore(m, ed, 3), editor)
    [sent] = of(SendPut, effects)
    assert (
        isinstance(sent, SendPut)
        and sent.put.text == "v3 text"
        and sent.put.reason == RestoreSave(3)
    )
    model, effects = run(
        model, lambda m, ed: saves.put_done(m, ed, sent.put, doc(6, "v3 text")), editor
    )
    assert editor.now == "v3 text" and said(effects) == ["Restored v3 as v6."]


def test_a_recovered_draft_on_an_older_version_becomes_a_conflict() -> None:
    editor = Editor()
    model, _ = run(
        SessionModel(),
        lambda m, ed: reads.open_agent(m, ed, AGENT, "Writer"),
        editor,
    )
    draft = Draft("server", AGENT, "Writer", "typed on v3", 3, NOW)
    model, _ = run(model, lambda m, ed: reads.local_read(m, ed, m.gen, None, draft), editor)
    live = doc(4, "saved since", "Bob", earlier=1)
    model, _ = run(model, lambda m, ed: reads.fetched(m, ed, m.gen, live, NOW), editor)
    model, _ = run(model, choices.recover_draft, editor)
    assert editor.now == "typed on v3" and model.draft is None
    assert model.phase is Phase.CONFLICT and model.conflict == live


def test_the_phase_and_its_data_always_agree() -> None:
    with pytest.raises(AssertionError):
        SessionModel(agent_id=AGENT, phase=Phase.SAVING)  # a save out, but which?
    with pytest.raises(AssertionError):
        SessionModel(agent_id=AGENT, phase=Phase.IDLE, conflict=doc(2, "theirs"))
    with pytest.raises(AssertionError):
        SessionModel(agent_id=AGENT, phase=Phase.IDLE, save_again=True)


def test_the_transitions_import_without_qt() -> None:
    code = (
        "import sys\n"
        "import app.desk.session_choices, app.desk.session_reads, app.desk.session_saves\n"
        "import app.desk.session_messages, app.desk.session_model\n"
        "qt = sorted(m for m in sys.modules if m.startswith(('PySide6', 'shiboken6')))\n"
        "assert not qt, qt\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


# ---------------------------------------------------------------------- what waits for a save


def leave() -> AfterSave:
    return AfterSave("quit", lambda: None)


def test_what_waits_for_a_save_runs_once_it_is_confirmed() -> None:
    editor = Editor()
    model = typed(opened_on(doc(3, "live"), editor), editor, "mine")
    intent = leave()
    model, effects = run(model, lambda m, ed: saves.save_then(m, ed, intent), editor)
    [sent] = of(SendPut, effects)
    assert isinstance(sent, SendPut) and model.after_save is intent
    landed = doc(4, "mine")
    model, effects = run(model, lambda m, ed: saves.put_done(m, ed, sent.put, landed), editor)
    assert Saved(4) in effects
    model, effects = run(model, saves.settle_after_save, editor)
    assert effects == [Proceed(intent)] and model.after_save is None


@pytest.mark.parametrize(
    "answer",
    [InvalidRequest("refused"), VersionConflict(4), Offline("away")],
    ids=["refused", "conflict", "server away"],
)
def test_what_waits_for_a_save_is_dropped_when_it_does_not_land(answer: Exception) -> None:
    editor = Editor()
    model = typed(opened_on(doc(3, "live"), editor), editor, "mine")
    model, effects = run(model, lambda m, ed: saves.save_then(m, ed, leave()), editor)
    [sent] = of(SendPut, effects)
    assert isinstance(sent, SendPut)
    model, effects = run(model, lambda m, ed: saves.put_failed(m, ed, sent.put, answer), editor)
    assert model.phase is not Phase.SAVING
    if isinstance(answer, InvalidRequest):
        assert of(Refused, effects)
    model, effects = run(model, saves.settle_after_save, editor)
    assert not of(Proceed, effects) and model.after_save is None


def test_a_save_with_open_merge_conflicts_is_refused_and_drops_what_waited() -> None:
    editor = Editor()
    model = typed(opened_on(doc(3, "live"), editor), editor, "merged text")
    model, _ = run(model, lambda m, ed: saves.merge_marked(m, ed, 2), editor)
    model, effects = run(model, lambda m, ed: saves.save_then(m, ed, leave()), editor)
    assert not of(SendPut, effects)
    assert said(effects) == [
        "2 conflicts of the merge are not resolved yet: take mine, theirs or both, or edit by "
        "hand and delete the marker lines, then save."
    ]
    assert of(Refused, effects)
    model, effects = run(model, saves.settle_after_save, editor)
    assert not of(Proceed, effects) and model.after_save is None
    model, _ = run(model, lambda m, ed: saves.merge_marked(m, ed, 0), editor)
    model, effects = run(model, saves.save, editor)
    [sent] = of(SendPut, effects)
    assert isinstance(sent, SendPut) and sent.put.reason == MergeSave(3)
