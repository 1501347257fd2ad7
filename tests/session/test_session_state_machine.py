"""A stateful property test: random typing, saves, remote saves, outages, faults and crashes.

The session runs with ``Runner(sync=True)`` against the real reference server; Ann's requests
go through the real fault proxy, Bob saves straight to the server. After every step:

- nothing typed is lost: the latest typed text is in the editor, the draft, on the server
  (live or a kept version) or in local history (where Discard and Use theirs put it);
- no save is left in flight (at most one can be, and the sync runner finishes it);
- no save is sent while a conflict waits for the operator's choice;
- "saved" is shown only when the server holds exactly the editor text at the base version;
- whenever the editor differs from the server's text, leaving asks first (has_unsaved).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from app.core.models import TaskDoc
from app.desk.retry_backoff import RetryBackoff
from app.desk.runner import Runner
from app.store import LocalStore
from tests.session import session_env as env

AGENT = "a_writer"

words = st.sampled_from(["alpha", "beta", "gamma", "δέλτα", "\n- rule", " ", "✓", "## Work\n"])


class World:
    """What lives across examples: the server, the proxy, the two operators' clients."""

    def __init__(self, tmp: Path, server: Any, proxy: Any, ann: Any, bob: Any) -> None:
        self.tmp = tmp
        self.server = server
        self.proxy = proxy
        self.ann = ann
        self.bob = bob
        self.examples = 0


class SessionMachine(RuleBasedStateMachine):
    world: World

    def __init__(self) -> None:
        super().__init__()
        world = type(self).world
        world.examples += 1
        self.w = world
        self.w.proxy.clear()
        self.runner = Runner(sync=True)
        self.store = LocalStore(world.tmp / f"store-{world.examples}.sqlite3")
        self.remote_count = 0
        self.harness: Any = None
        self.typed: str | None = None  # the operator's latest typed text
        self.flushed = True  # no keystroke since the last draft write
        self.last_step = ""
        self.puts_before = 0
        self.conflict_before = False

    # ------------------------------------------------------------------ plumbing

    def _new_session(self) -> None:
        self.harness = env.make_harness(
            client=self.w.ann,
            store=self.store,
            runner=self.runner,
            backoff=RetryBackoff(first_s=0.01, cap_s=0.01),
        )
        self.harness.session.open(AGENT, "Writer")

    @property
    def session(self) -> Any:
        return self.harness.session

    @property
    def state(self) -> Any:
        return self.harness.session.state()

    def _puts(self) -> int:
        return sum(1 for e in self.w.proxy.exchanges if e.method == "PUT")

    def _step(self, name: str) -> None:
        self.last_step = name
        self.puts_before = self._puts()
        self.conflict_before = self.state.conflict is not None

    def teardown(self) -> None:
        if self.harness is not None:
            self.session.close()
            self.session.deleteLater()
        self.w.proxy.clear()
        self.store.close()

    # ------------------------------------------------------------------ steps

    @initialize()
    def open_agent(self) -> None:
        self._new_session()
        self.last_step = "open"

    def _type(self, text: str) -> None:
        self._step("type")
        self.harness.editor.type(text)
        self.typed = text
        self.flushed = False

    # Typing is what operators do most: three rules, so it is drawn as often as it happens.
    @rule(word=words)
    def type_more(self, word: str) -> None:
        self._type(self.harness.editor.text + word)

    @rule(word=words)
    def type_at_start(self, word: str) -> None:
        self._type(word + self.harness.editor.text)

    @rule(word=words)
    def type_over_everything(self, word: str) -> None:
        self._type(word)

    @rule()
    def pause_in_typing(self) -> None:
        """The draft timer fires."""
        self._step("pause")
        self.session.flush_draft()
        self.flushed = True

    @rule()
    def save(self) -> None:
        self._step("save")
        self.session.save()
        self.flushed = True  # a save writes the draft first

    @rule(word=words)
    def type_and_save(self, word: str) -> None:
        self._type(self.harness.editor.text + word)
        self.save()

    @rule(overwrite=st.booleans())
    def remote_save(self, overwrite: bool) -> None:
        """Bob saves from another desk, straight to the server."""
        self._step("remote")
        self.remote_count += 1
        live = self.w.bob.get_task(AGENT)
        text = f"Bob's version {self.remote_count}" if overwrite else live.content + " (Bob)"
        self.w.bob.put_task(AGENT, text, None)

    @rule()
    def go_offline(self) -> None:
        self._step("offline")
        self.w.proxy.clear()
        self.w.proxy.add(env.Fault.REFUSE)

    @rule()
    def come_back(self) -> None:
        self._step("back")
        self.w.proxy.clear()

    @rule(fault=st.sampled_from(["STATUS", "DROP_RESPONSE", "RESET"]))
    def fault_on_next_save(self, fault: str) -> None:
        self._step("fault")
        self.w.proxy.clear()
        extra: dict[str, Any] = {"status": 503, "retry_after": "1"} if fault == "STATUS" else {}
        self.w.proxy.add(env.Fault[fault], method="PUT", times=1, **extra)

    @rule()
    def time_passes(self) -> None:
        """The retry timer fires (or the operator presses Retry)."""
        self._step("retry")
        self.session.retry_now()

    @rule()
    def periodic_check(self) -> None:
        self._step("check")
        self.session.check_remote()

    # A conflict depends on network timing, so these rules check it themselves instead of
    # through preconditions: hypothesis must draw the same steps when it replays an example.
    @rule()
    def keep_mine(self) -> None:
        if self.harness is None or self.state.conflict is None:
            return
        self._step("keep_mine")
        self.session.keep_mine()
        self.flushed = True

    def _replaces_editor(self, action: Any) -> bool:
        before = self.harness.editor.replaced
        action()
        return bool(self.harness.editor.replaced != before)

    @rule()
    def use_theirs(self) -> None:
        if self.harness is None or self.state.conflict is None:
            return
        self._step("use_theirs")
        if self._replaces_editor(self.session.use_theirs):
            self.flushed = True  # the typed text went to local history

    @rule()
    def discard(self) -> None:
        self._step("discard")
        if self._replaces_editor(self.session.discard):
            self.flushed = True  # the typed text went to local history

    @rule()
    def undo_discard(self) -> None:
        self._step("undo_discard")
        if self._replaces_editor(self.session.undo_discard):
            self.typed = self.harness.editor.text  # the operator's text is back
            self.flushed = True  # and written as a draft at once

    @precondition(lambda self: self.flushed)
    @rule()
    def crash(self) -> None:
        """The app dies (after the last draft write) and starts again on the same store."""
        self._step("crash")
        self.session.deleteLater()  # no close(): nothing more is written
        self._new_session()
        if self.state.draft is not None:
            self.session.recover_draft()

    # ------------------------------------------------------------------ invariants

    def _server_text_at(self, version: int | None) -> str | None:
        live: TaskDoc = self.w.bob.get_task(AGENT)
        if version == live.version:
            return live.content
        return next((r.content for r in live.revisions if r.version == version), None)

    @invariant()
    def nothing_typed_is_lost(self) -> None:
        typed = self.typed
        if self.harness is None or typed is None or self.harness.editor.text == typed:
            return
        draft = self.store.get_draft(env.SERVER_KEY, AGENT)
        if draft is not None and draft.text == typed:
            return
        live = self.w.bob.get_task(AGENT)
        if typed == live.content or any(r.content == typed for r in live.revisions):
            return
        history = self.store.history(env.SERVER_KEY, AGENT)
        assert any(e.text == typed for e in history), (
            f"after {self.last_step!r} the typed text {typed!r} is nowhere; "
            f"editor holds {self.harness.editor.text!r}"
        )

    @invariant()
    def no_save_left_in_flight(self) -> None:
        if self.harness is not None:
            assert not self.state.saving

    @invariant()
    def no_save_while_a_conflict_waits(self) -> None:
        if self.harness is None or not self.conflict_before:
            return
        if self.last_step != "keep_mine":
            assert self._puts() == self.puts_before, f"a save was sent after {self.last_step!r}"

    @invariant()
    def saved_only_when_the_server_holds_the_text(self) -> None:
        if self.harness is None:
            return
        state = self.state
        if state.saved_text_confirmed:
            assert self._server_text_at(state.base_version) == self.harness.editor.text

    @invariant()
    def leaving_asks_when_the_editor_differs(self) -> None:
        if self.harness is None or self.state.loading:
            return
        state = self.state
        if self._server_text_at(state.base_version) != self.harness.editor.text:
            assert self.session.has_unsaved(), f"unsaved text not flagged after {self.last_step!r}"


@pytest.mark.timeout(240)
def test_the_session_never_loses_a_word(
    qapp: Any, tmp_path: Path, server: Any, proxy: Any, ann: Any, bob: Any
) -> None:
    SessionMachine.world = World(tmp_path, server, proxy, ann, bob)
    run_state_machine_as_test(
        SessionMachine,
        settings=settings(
            max_examples=40,
            stateful_step_count=40,
            deadline=None,
            database=None,  # every run explores afresh; failures print their steps
            # No "explain" phase: it re-runs every step under a line tracer, minutes over HTTP.
            phases=[Phase.explicit, Phase.generate, Phase.shrink],
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
