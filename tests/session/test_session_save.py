"""TaskSession against the real reference server: load, edit, drafts, save, collapse, limits."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.core.limits import TASK_MAX_BYTES, utf8_len
from app.core.user_message import Severity
from app.store import HistoryReason, LocalStore
from tests.session import session_env as env

AGENT = "a_writer"


def opened(qtbot: Any, make_harness: Any, agent: str = AGENT, **kw: Any) -> Any:
    h = make_harness(**kw)
    h.session.open(agent, "Writer")
    qtbot.waitUntil(lambda: h.state.saved_text_confirmed and not h.state.from_cache)
    return h


def puts(proxy: Any) -> list[Any]:
    return [e for e in proxy.exchanges if e.method == "PUT"]


def test_open_loads_the_live_task_into_the_editor(qtbot: Any, make_harness: Any, bob: Any) -> None:
    h = opened(qtbot, make_harness)
    live = bob.get_task(AGENT)
    assert h.editor.text == live.content
    assert h.state.base_version == live.version
    assert not h.state.dirty and not h.session.has_unsaved()


def test_edit_then_save_puts_exactly_the_editor_text(
    qtbot: Any, make_harness: Any, bob: Any, proxy: Any
) -> None:
    h = opened(qtbot, make_harness)
    before = bob.get_task(AGENT).version
    h.editor.type(h.editor.text + "\n- Sign every draft — Ann ✓\n")
    assert h.state.dirty and not h.state.saved_text_confirmed and h.session.has_unsaved()
    h.session.save()
    qtbot.waitUntil(lambda: h.state.saved_text_confirmed)
    live = bob.get_task(AGENT)
    assert live.content == h.editor.text
    assert live.version == before + 1 == h.state.base_version
    assert not h.session.has_unsaved()
    assert len(puts(proxy)) == 1
    assert f"Saved as v{live.version}." in h.said("info")


def test_the_cached_copy_shows_first_then_the_fresh_one(
    qtbot: Any, make_harness: Any, store: Any, bob: Any, hooks: Any
) -> None:
    live = bob.get_task(AGENT)
    hooks.delay(0.3, method="GET")  # the fresh copy arrives well after the cached one
    stale = replace(live, content="old copy", version=live.version - 1, etag=None)
    store.put_task(env.SERVER_KEY, stale)
    h = make_harness()
    loaded: list[str] = []
    h.session.task_loaded.connect(lambda doc: loaded.append(doc.content))
    h.session.open(AGENT)
    qtbot.waitUntil(lambda: len(loaded) == 2)
    assert loaded == ["old copy", live.content]
    assert any(s.from_cache for s in h.states)
    assert h.editor.text == live.content and h.state.saved_text_confirmed


def test_a_draft_is_written_within_a_second_of_the_last_keystroke(
    qtbot: Any, make_harness: Any, store: Any
) -> None:
    h = opened(qtbot, make_harness)
    h.editor.type("typed and not saved")
    started = time.monotonic()
    qtbot.waitUntil(lambda: store.get_draft(env.SERVER_KEY, AGENT) is not None, timeout=1000)
    assert time.monotonic() - started <= 1.0
    draft = store.get_draft(env.SERVER_KEY, AGENT)
    assert draft.text == "typed and not saved"
    assert draft.base_version == h.state.base_version
    assert h.editor.text == "typed and not saved"


def test_steady_typing_still_writes_a_draft_every_second(
    qtbot: Any, make_harness: Any, store: Any
) -> None:
    """The debounce alone would wait for a pause; the max-wait writes while typing goes on."""
    from PySide6.QtCore import QTimer

    h = opened(qtbot, make_harness)
    keys = QTimer()
    keys.setInterval(100)  # a keystroke every 100 ms: the 700 ms debounce never fires
    count = [0]

    def press() -> None:
        count[0] += 1
        h.editor.type(f"key {count[0]}")

    keys.timeout.connect(press)
    keys.start()
    try:
        qtbot.waitUntil(lambda: store.get_draft(env.SERVER_KEY, AGENT) is not None, timeout=1300)
    finally:
        keys.stop()
    assert count[0] >= 8  # typing never paused long enough for the debounce


def test_the_draft_goes_only_after_the_server_confirms_the_bytes(
    qtbot: Any, make_harness: Any, store: Any, hooks: Any
) -> None:
    h = opened(qtbot, make_harness)
    h.editor.type("first words")
    hooks.delay(0.6, after=True, method="PUT")  # the save lands, the answer waits
    h.session.save()
    qtbot.waitUntil(lambda: store.get_draft(env.SERVER_KEY, AGENT) is not None)
    assert h.state.saving
    assert store.get_draft(env.SERVER_KEY, AGENT).text == "first words"  # still there
    qtbot.waitUntil(lambda: h.state.saved_text_confirmed)
    h.runner.wait_idle()
    assert store.get_draft(env.SERVER_KEY, AGENT) is None


def test_typing_during_a_save_keeps_the_newer_draft(
    qtbot: Any, make_harness: Any, store: Any, hooks: Any, bob: Any
) -> None:
    h = opened(qtbot, make_harness)
    h.editor.type("sent text")
    hooks.delay(0.6, after=True, method="PUT")
    h.session.save()
    qtbot.waitUntil(lambda: h.state.saving)
    h.editor.type("sent text and more")
    h.session.flush_draft()
    qtbot.waitUntil(lambda: not h.state.saving)
    h.runner.wait_idle()
    assert bob.get_task(AGENT).content == "sent text"
    assert h.state.dirty and not h.state.saved_text_confirmed
    assert store.get_draft(env.SERVER_KEY, AGENT).text == "sent text and more"


def test_repeated_saves_while_one_runs_collapse_into_one_follow_up(
    qtbot: Any, make_harness: Any, proxy: Any, hooks: Any, bob: Any
) -> None:
    h = opened(qtbot, make_harness)
    start = bob.get_task(AGENT).version
    hooks.delay(0.5, after=True, method="PUT")
    h.editor.type("A")
    h.session.save()
    qtbot.waitUntil(lambda: h.state.saving)
    for text in ("AB", "ABC", "ABCD"):
        h.editor.type(text)
        h.session.save()
        h.session.save()
    assert h.state.pending_save
    qtbot.waitUntil(lambda: h.state.saved_text_confirmed, timeout=5000)
    live = bob.get_task(AGENT)
    assert live.content == "ABCD"
    assert live.version == start + 2
    assert [r.content for r in live.revisions[:1]] == ["A"]
    assert len(puts(proxy)) == 2
    assert all(not (s.saving and s.conflict) for s in h.states)


def test_a_task_over_256_kb_is_never_sent(
    qtbot: Any, make_harness: Any, proxy: Any, store: Any
) -> None:
    h = opened(qtbot, make_harness)
    big = "é" * (TASK_MAX_BYTES // 2 + 1)  # 131,073 characters but 262,146 bytes
    assert len(big) < TASK_MAX_BYTES < utf8_len(big)
    h.editor.type(big)
    h.session.save()
    h.runner.wait_idle()
    assert puts(proxy) == []
    errors = h.said("error")
    assert errors and "256 KB" in errors[-1] and "Traceback" not in errors[-1]
    assert h.editor.text == big
    assert store.get_draft(env.SERVER_KEY, AGENT).text == big
    assert h.session.has_unsaved()


def test_a_dropped_answer_after_the_save_landed_counts_as_saved(
    qtbot: Any, make_harness: Any, proxy: Any, bob: Any
) -> None:
    """The answer is lost; the live Task holds exactly our bytes, so it is saved."""
    h = opened(qtbot, make_harness)
    proxy.fault(env.Fault.DROP_RESPONSE, method="PUT", times=1)
    h.editor.type("landed despite the drop")
    h.session.save()
    qtbot.waitUntil(lambda: h.state.saved_text_confirmed, timeout=8000)
    assert bob.get_task(AGENT).content == "landed despite the drop"
    assert not h.state.offline and not h.state.pending_save and not h.said("error")


def test_a_cut_off_answer_is_checked_against_the_live_task(
    qtbot: Any, make_harness: Any, hooks: Any, bob: Any
) -> None:
    """Half an answer arrives: the session asks the server before it says "Saved"."""
    h = opened(qtbot, make_harness)
    hooks.cut(count=1, method="PUT")
    h.editor.type("landed despite the cut")
    h.session.save()
    qtbot.waitUntil(lambda: h.state.saved_text_confirmed, timeout=8000)
    assert bob.get_task(AGENT).content == "landed despite the cut"
    assert not h.state.offline and not h.state.pending_save


def test_a_dropped_answer_of_a_save_that_never_landed_is_not_saved(
    qtbot: Any, make_harness: Any, proxy: Any, bob: Any
) -> None:
    h = opened(qtbot, make_harness)
    before = bob.get_task(AGENT)
    proxy.fault(env.Fault.RESET, method="PUT", times=1)  # nothing reaches the server
    h.editor.type("never landed")
    h.session.save()
    qtbot.waitUntil(lambda: not h.state.saving and h.state.pending_save, timeout=8000)
    assert not h.state.saved_text_confirmed
    assert bob.get_task(AGENT).version == before.version
    # The owed save goes out by itself (backoff) and this time lands.
    qtbot.waitUntil(lambda: h.state.saved_text_confirmed, timeout=8000)
    assert bob.get_task(AGENT).content == "never landed"


def test_a_refused_save_says_why_and_keeps_the_text(
    qtbot: Any, make_harness: Any, server: Any, store: Any, runner: Any
) -> None:
    with env.client(server.url, "mia-secret") as member:
        h = make_harness(client=member)
        h.session.open(AGENT)
        qtbot.waitUntil(lambda: h.state.saved_text_confirmed)
        h.editor.type("a member's edit")
        h.session.save()
        qtbot.waitUntil(lambda: bool(h.said("error")))
    assert "operator" in h.said("error")[-1]
    assert h.editor.text == "a member's edit"
    assert h.state.dirty and not h.state.pending_save and not h.state.saving


def test_discard_keeps_the_text_in_history_and_can_be_undone(
    qtbot: Any, make_harness: Any, store: Any, bob: Any
) -> None:
    h = opened(qtbot, make_harness)
    original = h.editor.text
    h.editor.type("edits to drop")
    h.session.flush_draft()
    h.session.discard()
    qtbot.waitUntil(lambda: h.editor.text == original)
    assert not h.session.has_unsaved()
    entry = store.history(env.SERVER_KEY, AGENT)[0]
    assert (entry.text, entry.reason) == ("edits to drop", HistoryReason.DISCARDED)
    h.runner.wait_idle()
    assert store.get_draft(env.SERVER_KEY, AGENT) is None
    assert bob.get_task(AGENT).content == original  # nothing was written
    h.session.undo_discard()
    assert h.editor.text == "edits to drop"
    assert h.state.dirty


def test_restore_saves_an_earlier_version_as_a_new_one(
    qtbot: Any, make_harness: Any, bob: Any
) -> None:
    h = opened(qtbot, make_harness, agent="a_scout")
    live = bob.get_task("a_scout")
    oldest = live.revisions[-1]
    h.session.restore(oldest.version)
    qtbot.waitUntil(lambda: h.state.base_version == live.version + 1)
    after = bob.get_task("a_scout")
    assert after.content == oldest.content == h.editor.text
    assert h.state.saved_text_confirmed
    assert f"Restored v{oldest.version} as v{after.version}." in h.said("info")
    # The server is told it is a restore: the audit lists it as one, not as an edit.
    newest = bob.audit(agent_id="a_scout", limit=1)[0]
    assert (newest.kind, newest.version) == ("task_restored", after.version)


def test_restore_waits_for_unsaved_edits(qtbot: Any, make_harness: Any, proxy: Any) -> None:
    h = opened(qtbot, make_harness, agent="a_scout")
    h.editor.type("mine")
    h.session.restore(1)
    assert puts(proxy) == []
    assert "before restoring" in h.said("warning")[-1]


def test_a_failing_store_reaches_the_operator_and_the_text_stays(
    qtbot: Any, make_harness: Any, store: Any
) -> None:
    h = opened(qtbot, make_harness)
    h.runner.wait_idle()  # the open's cache writes are done: the store fails only the draft
    store.close()
    with qtbot.waitSignal(h.session.message, timeout=3000) as said:
        h.editor.type("words the disk refused")
        h.session.flush_draft()
    assert said.args[0].severity is Severity.ERROR
    assert said.args[0].text.startswith("Can't save the draft")
    assert h.editor.text == "words the disk refused"
    assert h.session.has_unsaved()


def test_a_crash_leaves_a_draft_the_next_session_offers(
    qtbot: Any, make_harness: Any, store: Any, bob: Any
) -> None:
    first = opened(qtbot, make_harness)
    first.editor.type("typed before the crash")
    qtbot.waitUntil(lambda: store.get_draft(env.SERVER_KEY, AGENT) is not None, timeout=1000)
    first.session.deleteLater()  # a crash: no close(), no last flush

    second = make_harness()
    second.session.open(AGENT, "Writer")
    qtbot.waitUntil(lambda: second.state.draft is not None and second.state.saved_text_confirmed)
    assert second.state.draft.text == "typed before the crash"
    assert any("Recover it?" in t for t in second.said("warning"))
    second.session.recover_draft()
    assert second.editor.text == "typed before the crash"
    assert second.state.dirty and second.state.conflict is None
    second.session.save()
    qtbot.waitUntil(lambda: second.state.saved_text_confirmed)
    assert bob.get_task(AGENT).content == "typed before the crash"
    second.runner.wait_idle()
    assert store.get_draft(env.SERVER_KEY, AGENT) is None


def test_a_dismissed_draft_lands_in_history(qtbot: Any, make_harness: Any, store: Any) -> None:
    store.save_draft(env.SERVER_KEY, AGENT, "an old draft", 1)
    h = make_harness()
    h.session.open(AGENT)
    qtbot.waitUntil(lambda: h.state.draft is not None)
    h.session.dismiss_draft()
    h.runner.wait_idle()
    assert store.get_draft(env.SERVER_KEY, AGENT) is None
    assert store.history(env.SERVER_KEY, AGENT)[0].text == "an old draft"
    assert h.state.draft is None


class CountingStore(LocalStore):
    """The real store, counting its draft writes (each is an fsync on the operator's disk)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.draft_writes: list[str] = []

    def save_draft(self, server: str, agent_id: str, text: str, *args: Any, **kw: Any) -> Any:
        self.draft_writes.append(text)
        return super().save_draft(server, agent_id, text, *args, **kw)


def test_a_save_writes_the_draft_once(qtbot: Any, make_harness: Any, tmp_path: Path) -> None:
    with CountingStore(tmp_path / "counted" / "store.sqlite3") as counted:
        h = opened(qtbot, make_harness, store=counted)
        h.editor.type("written once before it goes")
        h.session.save()
        qtbot.waitUntil(lambda: h.state.saved_text_confirmed)
        h.runner.wait_idle()
        assert counted.draft_writes == ["written once before it goes"]
        h.session.close()
        h.runner.wait_idle()


def test_a_redirected_save_is_refused_at_once_and_not_read_back(
    qtbot: Any, make_harness: Any, proxy: Any, bob: Any
) -> None:
    """The client decides what an unreadable answer means (a redirect was never a save; a
    garbled success is confirmed by the client itself): the session reads nothing back."""
    h = opened(qtbot, make_harness)
    before = bob.get_task(AGENT)
    proxy.fault(env.Fault.REDIRECT, method="PUT", times=1, status=307)
    sent_before = len(proxy.exchanges)
    h.editor.type("sent to a redirect")
    h.session.save()
    qtbot.waitUntil(lambda: bool(h.said("error")))
    h.runner.wait_idle()
    assert [e.method for e in proxy.exchanges[sent_before:]] == ["PUT"]
    assert "redirect" in h.said("error")[-1]
    assert h.state.dirty and not h.state.saving and not h.state.saved_text_confirmed
    assert bob.get_task(AGENT).version == before.version
    assert h.editor.text == "sent to a redirect"
