"""A server seen once and then gone: the cached Task, an honest preview, saves that wait.

The first window signs in through the proxy and keeps its offline copy (the Task and the
notes its preview needed). The next window starts with the server gone (the proxy refuses
connections) and later sees it come back. Nothing is mocked: the server, the proxy, the
store and the window are real.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import pytest

from app.client import TaskdeskClient
from app.store import LocalStore
from tests.faultproxy import Fault
from tests.faults.conftest import TIMEOUT_MS, Desk, connect, type_at_end, unclear_parts
from tests.window_steps import keep_mine
from widgets.window.messages import Severity

pytestmark = pytest.mark.timeout(90, method="thread")

STYLE_GUIDE = "org/o_acme/guilds/guild_ops/style-guide.md"
STYLE_GUIDE_TEXT = "Write short sentences."
MINE = " Offline rule: answer within a day."
BOBS = "\nBob's rule, saved while Ann was offline.\n"


def _cached(desk: Desk) -> tuple[str, datetime] | None:
    """Scout's Task in the offline copy, and when it was fetched."""
    with LocalStore(desk.home / "data" / "store.sqlite3") as store:
        found = store.get_task(desk.server_key, "a_scout")
        note = store.get_note(desk.server_key, STYLE_GUIDE)
    if found is None or note is None:
        return None
    return found.value.content, found.fetched_at


def _seen_once(qtbot, make_desk: Callable[..., Desk]) -> tuple[Desk, str, datetime]:
    """A first session: sign in, Scout's Task and its notes arrive and are kept; quit."""
    first = make_desk()
    connect(qtbot, first)
    qtbot.waitUntil(lambda: _cached(first) is not None, timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: first.tab.last_preview is not None, timeout=TIMEOUT_MS)
    found = _cached(first)
    assert found is not None
    first.close()
    return first, found[0], found[1]


def _offline_session(qtbot, make_desk: Callable[..., Desk]) -> tuple[Desk, str, datetime]:
    """A second session, started while the server is gone (connections refused)."""
    first, cached_text, fetched_at = _seen_once(qtbot, make_desk)
    first.proxy.fault(Fault.REFUSE)
    second = make_desk(first.proxy)
    connect(qtbot, second)  # Scout, the last agent open, shows from the offline copy
    qtbot.waitUntil(lambda: second.tab.offline_banner.isVisible(), timeout=TIMEOUT_MS)
    return second, cached_text, fetched_at


def test_opens_on_the_cached_task_offline_as_of_its_time_and_preview_says_notes_are_cached(
    qtbot, make_desk
) -> None:
    desk, cached_text, fetched_at = _offline_session(qtbot, make_desk)
    tab = desk.tab
    assert tab.editor.text() == cached_text
    state = tab.state
    assert state.offline and state.from_cache and state.agent_id == "a_scout"
    banner = tab.offline_banner.text()
    shown_time = fetched_at.astimezone().strftime("%-d %b %H:%M")
    assert f"as of {shown_time}" in banner, banner
    assert "Edits are kept" in banner

    # The preview expands from the notes kept last time, and says they may be old.
    qtbot.waitUntil(
        lambda: tab.last_preview is not None and tab.last_preview.from_cache, timeout=TIMEOUT_MS
    )
    preview = tab.last_preview
    assert preview is not None
    assert STYLE_GUIDE_TEXT in preview.expansion.text
    assert preview.notice is not None and "shown as they were at" in preview.notice
    warnings = [t for t, s in desk.window.messages.history if s is not Severity.INFO]
    assert any("shown as they were at" in t for t in warnings), warnings
    assert any("showing what was last seen" in t for t in warnings), warnings
    for text, _ in desk.window.messages.history:
        assert not unclear_parts(text), text


def _save_while_gone(qtbot, desk: Desk) -> tuple[str, int]:
    """The server is still gone; the operator types and saves."""
    base = desk.tab.state.base_version
    assert base is not None
    mine = type_at_end(qtbot, desk, MINE)
    desk.window.actions_.save.trigger()
    qtbot.waitUntil(
        lambda: desk.tab.state.pending_save and not desk.tab.state.saving, timeout=TIMEOUT_MS
    )
    assert desk.tab.editor.text() == mine
    assert desk.tab.offline_banner.isVisible()
    qtbot.waitUntil(lambda: desk.draft_text("a_scout") == mine, timeout=TIMEOUT_MS)
    return mine, base


def _puts_after(desk: Desk, index: int) -> list[str]:
    return [e.method for e in desk.proxy.exchanges[index:] if e.method == "PUT"]


def test_save_while_offline_waits_then_goes_out_on_its_base_version(qtbot, make_desk) -> None:
    desk, _, _ = _offline_session(qtbot, make_desk)
    mine, base = _save_while_gone(qtbot, desk)
    with TaskdeskClient(desk.server.url, desk.server.token("bob")) as bob:
        assert bob.get_task("a_scout").version == base  # nothing went out while gone

    desk.proxy.clear()  # the server is back
    desk.tab.offline_banner.retry_button.click()
    qtbot.waitUntil(lambda: desk.tab.state.saved_text_confirmed, timeout=TIMEOUT_MS)
    with TaskdeskClient(desk.server.url, desk.server.token("bob")) as bob:
        live = bob.get_task("a_scout")
    assert live.version == base + 1
    assert live.content == mine
    assert live.updated_by_name == "Ann"
    assert not desk.tab.offline_banner.isVisible()
    assert not desk.tab.has_unsaved()
    qtbot.waitUntil(lambda: desk.draft_text("a_scout") is None, timeout=TIMEOUT_MS)


def test_a_save_made_meanwhile_opens_the_merge_and_nothing_is_written(qtbot, make_desk) -> None:
    desk, _, _ = _offline_session(qtbot, make_desk)
    mine, base = _save_while_gone(qtbot, desk)
    with TaskdeskClient(desk.server.url, desk.server.token("bob")) as bob:
        theirs = bob.put_task("a_scout", bob.get_task("a_scout").content + BOBS, base)
    assert theirs.version == base + 1

    desk.proxy.clear()  # the server is back
    before = len(desk.proxy.exchanges)
    desk.tab.offline_banner.retry_button.click()
    # The operator was away when the save met Bob's: the merge is shown, not only a question.
    qtbot.waitUntil(lambda: desk.tab.merge_flow.active, timeout=TIMEOUT_MS)
    merge_banner = desk.tab.banners.merge_banner
    assert merge_banner.isVisible() and "Bob" in merge_banner.text()
    text = desk.tab.editor.text()
    assert MINE.strip() in text and BOBS.strip() in text
    assert _puts_after(desk, before) == []  # the owed save waits for the operator's choice
    with TaskdeskClient(desk.server.url, desk.server.token("bob")) as bob:
        assert bob.get_task("a_scout").content == theirs.content

    # Cancel merge is the question again, with my text; Keep mine saves it over theirs.
    merge_banner.cancel_button.click()
    assert desk.tab.conflict_banner.isVisible()
    assert desk.tab.editor.text() == mine
    keep_mine(qtbot, desk.tab)
    qtbot.waitUntil(lambda: desk.tab.state.saved_text_confirmed, timeout=TIMEOUT_MS)
    with TaskdeskClient(desk.server.url, desk.server.token("bob")) as bob:
        live = bob.get_task("a_scout")
    assert live.content == mine
    assert live.version == theirs.version + 1
    assert _puts_after(desk, before) == ["PUT"]


def test_save_pressed_while_offline_says_it_is_pending(qtbot, make_desk) -> None:
    desk, _, _ = _offline_session(qtbot, make_desk)
    type_at_end(qtbot, desk, MINE)
    shown = len(desk.window.messages.history)
    desk.window.actions_.save.trigger()
    qtbot.waitUntil(
        lambda: desk.tab.state.pending_save and not desk.tab.state.saving, timeout=TIMEOUT_MS
    )
    qtbot.waitUntil(lambda: desk.window.runner.is_idle(), timeout=TIMEOUT_MS)
    said = [t for t, _ in desk.window.messages.history[shown:]]
    assert any("saved when the server is back" in t for t in said), said
