"""A message that a later event makes untrue goes when that event happens."""

from __future__ import annotations

import pytest

from app.client import TaskdeskClient
from tests.faultproxy import Fault
from tests.faults.conftest import TIMEOUT_MS, Desk, type_at_end

pytestmark = pytest.mark.timeout(90, method="thread")
ON_CALL = "org/o_acme/guilds/guild_ops/on-call.md"  # named nowhere before: never looked up


def _said(desk: Desk, words: str) -> bool:
    return any(words in text for text, _ in desk.window.messages.history)


def _first_preview_done(qtbot, desk: Desk) -> None:
    """The Task's first preview is on screen and no other is on its way: every note it
    embeds has been looked up, so what follows never races those lookups."""
    pipeline = desk.tab.live_preview.pipeline
    assert pipeline is not None
    qtbot.waitUntil(
        lambda: desk.tab.last_preview is not None and not pipeline.busy, timeout=TIMEOUT_MS
    )


def test_offline_messages_go_when_the_server_is_back_and_the_save_lands(qtbot, desk: Desk) -> None:
    # Events, not timing: the first preview's lookups are over before the server stops
    # (they were once still under way, or not, by the machine's load), and the edit made
    # while it is gone embeds a note no preview has asked about, so the preview can't check
    # it whatever the load.
    _first_preview_done(qtbot, desk)
    type_at_end(qtbot, desk, " Answer within a day.")
    desk.proxy.fault(Fault.REFUSE)  # the server stops
    desk.window.actions_.save.trigger()
    type_at_end(qtbot, desk, " Say so. See ")
    desk.tab.editor.insert_embed(ON_CALL)  # Insert › Note's way in
    mine = desk.tab.editor.text()
    qtbot.waitUntil(lambda: _said(desk, "saved when the server is back"), timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: _said(desk, "could not be checked"), timeout=TIMEOUT_MS)
    bar = desk.tab.message_bar
    assert bar.isVisible()

    desk.proxy.clear()  # the server is back; the save that waited goes out
    desk.tab.offline_banner.retry_button.click()
    qtbot.waitUntil(lambda: desk.tab.state.saved_text_confirmed, timeout=TIMEOUT_MS)
    desk.window.actions_.save.trigger()
    qtbot.waitUntil(lambda: not desk.tab.has_unsaved(), timeout=TIMEOUT_MS)
    with TaskdeskClient(desk.server.url, desk.server.token("bob")) as bob:
        assert bob.get_task("a_scout").content == mine
    qtbot.waitUntil(lambda: not bar.isVisible(), timeout=TIMEOUT_MS)
    assert not desk.tab.offline_banner.isVisible()


def test_a_warning_that_still_holds_comes_back_when_a_newer_one_goes(qtbot, desk: Desk) -> None:
    bar = desk.tab.message_bar
    desk.window.messages.warning("Unsaved edits from an earlier session were kept for: Writer.")
    type_at_end(qtbot, desk, " Offline.")
    desk.proxy.fault(Fault.REFUSE)
    desk.window.actions_.save.trigger()
    qtbot.waitUntil(lambda: _said(desk, "saved when the server is back"), timeout=TIMEOUT_MS)
    assert "kept for: Writer" not in bar.text()
    desk.proxy.clear()
    desk.tab.offline_banner.retry_button.click()
    qtbot.waitUntil(lambda: desk.tab.state.saved_text_confirmed, timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: bar.text().startswith("Unsaved edits"), timeout=TIMEOUT_MS)
    assert bar.isVisible()
