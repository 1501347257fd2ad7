"""TaskSession when others save meanwhile and when the server goes away (real server, proxy)."""

from __future__ import annotations

from typing import Any

from app.desk.retry_backoff import RetryBackoff
from app.server import start_server
from app.store import HistoryReason
from tests.session import session_env as env

AGENT = "a_writer"


def opened(qtbot: Any, make_harness: Any, **kw: Any) -> Any:
    h = make_harness(**kw)
    h.session.open(AGENT, "Writer")
    qtbot.waitUntil(lambda: h.state.saved_text_confirmed and not h.state.from_cache)
    return h


def puts(proxy: Any) -> list[Any]:
    return [e for e in proxy.exchanges if e.method == "PUT"]


def in_conflict(qtbot: Any, make_harness: Any, bob: Any) -> tuple[Any, Any]:
    """Ann edits, Bob saves first, Ann saves: a 409 and their version in the state."""
    h = opened(qtbot, make_harness)
    h.editor.type("mine")
    theirs = bob.put_task(AGENT, "theirs", bob.get_task(AGENT).version)
    h.session.save()
    qtbot.waitUntil(lambda: h.state.conflict is not None)
    return h, theirs


def test_a_409_shows_their_version_and_keeps_my_text(
    qtbot: Any, make_harness: Any, bob: Any, proxy: Any
) -> None:
    h, theirs = in_conflict(qtbot, make_harness, bob)
    assert h.state.conflict.content == "theirs"
    assert h.state.conflict.version == theirs.version
    assert h.editor.text == "mine"
    assert h.session.has_unsaved() and not h.state.saved_text_confirmed
    assert any("Keep mine or Use theirs" in t for t in h.said("warning"))
    # No save happens until the operator chooses.
    h.session.save()
    h.session.retry_now()
    h.runner.wait_idle()
    assert len(puts(proxy)) == 1
    assert bob.get_task(AGENT).content == "theirs"
    assert "choose Keep mine or Use theirs" in h.said("warning")[-1]


def test_keep_mine_saves_over_theirs_knowingly(
    qtbot: Any, make_harness: Any, bob: Any, proxy: Any
) -> None:
    h, theirs = in_conflict(qtbot, make_harness, bob)
    h.session.keep_mine()
    qtbot.waitUntil(lambda: h.state.saved_text_confirmed)
    live = bob.get_task(AGENT)
    assert live.content == "mine" and live.version == theirs.version + 1
    assert h.state.conflict is None and not h.session.has_unsaved()
    assert puts(proxy)[-1].status == 200


def test_use_theirs_loads_theirs_and_keeps_mine_in_history(
    qtbot: Any, make_harness: Any, bob: Any, store: Any, proxy: Any
) -> None:
    h, theirs = in_conflict(qtbot, make_harness, bob)
    h.session.use_theirs()
    qtbot.waitUntil(lambda: h.editor.text == "theirs")
    assert h.state.conflict is None and not h.session.has_unsaved()
    assert h.state.base_version == theirs.version and h.state.saved_text_confirmed
    entry = store.history(env.SERVER_KEY, AGENT)[0]
    assert (entry.text, entry.reason) == ("mine", HistoryReason.USED_THEIRS)
    assert bob.get_task(AGENT).content == "theirs"
    assert len(puts(proxy)) == 1  # only the save that met the conflict


def test_discard_during_a_conflict_loads_theirs(
    qtbot: Any, make_harness: Any, bob: Any, store: Any
) -> None:
    h, _ = in_conflict(qtbot, make_harness, bob)
    h.session.discard()
    qtbot.waitUntil(lambda: h.editor.text == "theirs")
    assert store.history(env.SERVER_KEY, AGENT)[0].text == "mine"
    assert not h.session.has_unsaved()


def test_the_periodic_check_raises_a_conflict_while_editing(
    qtbot: Any, make_harness: Any, bob: Any, proxy: Any
) -> None:
    h = opened(qtbot, make_harness, poll_interval_ms=150)
    h.editor.type("mine, unsaved")
    bob.put_task(AGENT, "theirs meanwhile", None)
    qtbot.waitUntil(lambda: h.state.conflict is not None, timeout=3000)
    assert h.editor.text == "mine, unsaved"
    assert puts(proxy) == []
    # Unchanged Tasks cost a 304 on every later check.
    qtbot.waitUntil(lambda: any(e.status == 304 for e in proxy.exchanges), timeout=3000)


def test_the_periodic_check_loads_a_newer_version_when_nothing_is_edited(
    qtbot: Any, make_harness: Any, bob: Any
) -> None:
    h = opened(qtbot, make_harness, poll_interval_ms=150)
    bob.put_task(AGENT, "a newer version", None)
    qtbot.waitUntil(lambda: h.editor.text == "a newer version", timeout=3000)
    assert h.state.conflict is None and h.state.saved_text_confirmed


def test_offline_save_is_owed_and_goes_out_when_the_server_is_back(
    qtbot: Any, make_harness: Any, bob: Any, proxy: Any
) -> None:
    h = opened(qtbot, make_harness, backoff=RetryBackoff(first_s=0.2, cap_s=0.4))
    proxy.add(env.Fault.REFUSE)  # connections are refused: the server is gone for us
    h.editor.type("typed offline")
    h.session.save()
    qtbot.waitUntil(lambda: h.state.offline and h.state.pending_save and not h.state.saving)
    assert h.session.has_unsaved() and not h.state.saved_text_confirmed
    assert h.state.offline_as_of is not None
    assert any("Your edits are kept" in t for t in h.said("warning"))
    proxy.clear()  # back
    qtbot.waitUntil(lambda: h.state.saved_text_confirmed, timeout=5000)
    assert bob.get_task(AGENT).content == "typed offline"
    assert not h.state.offline and not h.state.pending_save


def test_a_503_with_retry_after_is_honoured(
    qtbot: Any, make_harness: Any, hooks: Any, bob: Any
) -> None:
    h = opened(qtbot, make_harness, backoff=RetryBackoff(first_s=5, cap_s=60))
    hooks.fail(503, count=1, retry_after=1, method="PUT")
    h.editor.type("after the outage")
    h.session.save()
    qtbot.waitUntil(lambda: h.state.pending_save and not h.state.saving)
    assert h.state.retry_in_s == 1  # the server's word, not the 5 s backoff
    qtbot.waitUntil(lambda: h.state.saved_text_confirmed, timeout=3000)
    assert bob.get_task(AGENT).content == "after the outage"


def test_offline_then_someone_saved_meanwhile_is_a_conflict_and_nothing_is_written(
    qtbot: Any, make_harness: Any, bob: Any, proxy: Any
) -> None:
    h = opened(qtbot, make_harness, backoff=RetryBackoff(first_s=0.2, cap_s=0.4))
    proxy.add(env.Fault.REFUSE)
    h.editor.type("typed offline")
    h.session.save()
    qtbot.waitUntil(lambda: h.state.pending_save and h.state.offline)
    theirs = bob.put_task(AGENT, "saved by Bob meanwhile", None)
    proxy.clear()
    qtbot.waitUntil(lambda: h.state.conflict is not None, timeout=5000)
    assert h.state.conflict.version == theirs.version
    assert not h.state.pending_save and h.editor.text == "typed offline"
    h.runner.wait_idle()
    live = bob.get_task(AGENT)
    assert live.content == "saved by Bob meanwhile" and live.version == theirs.version
    assert [e.status for e in puts(proxy)][-1] == 409


def test_the_server_stopped_and_started_again(
    qtbot: Any, make_harness: Any, tmp_path: Any, runner: Any, store: Any
) -> None:
    """Not a proxy fault: the real server process goes down and comes back on its port."""
    db = tmp_path / "own.sqlite3"
    server = start_server(env.WORKSPACE, db)
    port = server.port
    with env.client(server.url, env.ANN) as ann:
        h = make_harness(client=ann, backoff=RetryBackoff(first_s=0.2, cap_s=0.4))
        h.session.open(AGENT)
        qtbot.waitUntil(lambda: h.state.saved_text_confirmed)
        server.stop()
        h.editor.type("typed while the server was down")
        h.session.save()
        qtbot.waitUntil(lambda: h.state.offline and h.state.pending_save, timeout=5000)
        server = start_server(env.WORKSPACE, db, port=port)
        try:
            qtbot.waitUntil(lambda: h.state.saved_text_confirmed, timeout=8000)
            assert ann.get_task(AGENT).content == "typed while the server was down"
        finally:
            h.session.close()
            runner.wait_idle()
            server.stop()


def test_opening_offline_shows_the_cached_copy_and_says_so(
    qtbot: Any, make_harness: Any, proxy: Any, store: Any, bob: Any
) -> None:
    store.put_task(env.SERVER_KEY, bob.get_task(AGENT))
    proxy.add(env.Fault.REFUSE)
    h = make_harness()
    h.session.open(AGENT)
    qtbot.waitUntil(lambda: h.state.offline and not h.state.loading)
    assert h.editor.text == bob.get_task(AGENT).content
    assert h.state.from_cache and h.state.offline_as_of is not None
    assert any("Offline: showing the copy from" in t for t in h.said("warning"))


def test_a_recovered_draft_on_an_older_version_asks_before_saving(
    qtbot: Any, make_harness: Any, store: Any, bob: Any, proxy: Any
) -> None:
    base = bob.get_task(AGENT).version
    store.save_draft(env.SERVER_KEY, AGENT, "draft typed on the old version", base)
    newer = bob.put_task(AGENT, "saved elsewhere since", base)
    h = make_harness()
    h.session.open(AGENT)
    qtbot.waitUntil(lambda: h.state.draft is not None and h.state.saved_text_confirmed)
    assert h.state.draft.base_version == base
    h.session.recover_draft()
    assert h.editor.text == "draft typed on the old version"
    assert h.state.conflict is not None and h.state.conflict.version == newer.version
    h.session.save()
    h.runner.wait_idle()
    assert puts(proxy) == []  # nothing overwrites Bob's save without a choice
