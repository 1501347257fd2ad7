"""The real window against a real spec-only reference server: it works, with less, and says so."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.client import TaskdeskClient
from app.desk.note_blast import NO_USED_BY
from app.render.preview_notes import UNSUPPORTED_MESSAGE
from tests.live_server import LiveServer
from tests.window_steps import keep_mine, said, saved, sign_in, type_at_end
from widgets.dialogs.connect import ConnectRequest
from widgets.window.main_window import MainWindow
from widgets.window.messages import Severity

TIMEOUT = 10_000
STYLE_GUIDE = "org/o_acme/guilds/guild_ops/style-guide.md"


@pytest.fixture
def bob(spec_only: LiveServer) -> Iterator[TaskdeskClient]:
    """A second operator saving through their own client."""
    with TaskdeskClient(spec_only.url, spec_only.token("bob")) as client:
        yield client


def connect(qtbot, window: MainWindow, server: LiveServer, who: str = "ann") -> None:
    """Sign in; the server lists no agents, so none opens by itself."""
    sign_in(qtbot, window, server.url, server.token(who), first_agent=False)


def open_by_id(qtbot, window: MainWindow, agent_id: str) -> None:
    """Press "Open agent by id…", type the id, press Open."""
    window.sidebar.open_by_id_button.click()
    dialog = window.sidebar.open_by_id_dialog
    assert dialog is not None and dialog.isVisible()
    assert not dialog.open_button.isEnabled()  # nothing typed yet
    qtbot.keyClicks(dialog.id_edit, agent_id)
    dialog.open_button.click()


def no_traceback(window: MainWindow) -> None:
    assert not any("Traceback" in t or "Error(" in t for t in said(window))


def test_connect_open_by_id_edit_save_and_conflict(
    qtbot, make_window, spec_only: LiveServer, bob: TaskdeskClient
) -> None:
    window: MainWindow = make_window()
    connect(qtbot, window, spec_only)
    features = window.features_label
    assert features.isVisible()
    for lacking in ("who-am-I", "agent list", "guild names", "note text"):
        assert lacking in features.text(), features.text()
    assert "operator" in features.toolTip() and "Open agent by id" in features.toolTip()
    assert any("as an operator (assumed" in t for t in said(window, Severity.INFO))
    assert window.sidebar.open_by_id_button.isVisible()
    assert window.agent_model.rowCount() == 0
    assert "Open agent by id" in window.sidebar.empty_label.text()

    # An id the server doesn't know: one clear message, nothing opened.
    open_by_id(qtbot, window, "a_nobody")
    qtbot.waitUntil(lambda: window.messages.error_box is not None, timeout=TIMEOUT)
    assert "no agent with the id “a_nobody”" in window.messages.error_box.text()
    window.messages.error_box.done(0)
    assert window.agent_model.rowCount() == 0

    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
        open_by_id(qtbot, window, "a_scout")
    live = bob.get_task("a_scout")
    tab = window.task_tab
    assert tab.editor.text() == live.content
    assert window.connection.me.org_id == "o_acme"  # read from the Task's display path
    assert window.agent_model.agent_ids() == ["a_scout"]
    assert "Opened by id" in tab.header.detail_label.text()
    assert f"v{live.version}" in tab.header.detail_label.text()
    # No ETag from this server: every read is a whole one, and the status line says so.
    qtbot.waitUntil(lambda: "change tags" in features.text(), timeout=TIMEOUT)

    type_at_end(qtbot, window, "Ann's rule.")
    window.actions_.save.trigger()
    qtbot.waitUntil(lambda: saved(window), timeout=TIMEOUT)
    after = bob.get_task("a_scout")
    assert (after.version, after.content) == (live.version + 1, live.content + "Ann's rule.")

    # Bob saves meanwhile; Ann's next save meets a 409 that carries no version.
    theirs = after.content + "\nBob's rule.\n"
    bob.put_task("a_scout", theirs, after.version)
    type_at_end(qtbot, window, " And mine.")
    mine = tab.editor.text()
    window.actions_.save.trigger()
    qtbot.waitUntil(lambda: tab.conflict_banner.isVisible(), timeout=TIMEOUT)
    assert f"v{after.version + 1}" in tab.conflict_banner.text()
    assert tab.editor.text() == mine  # nothing lost
    keep_mine(qtbot, tab)
    qtbot.waitUntil(lambda: saved(window), timeout=TIMEOUT)
    final = bob.get_task("a_scout")
    assert final.content == mine and final.revisions[0].content == theirs
    assert window.messages.error_box is None
    no_traceback(window)


def test_the_preview_says_it_cannot_inline_notes(qtbot, make_window, spec_only: LiveServer) -> None:
    window: MainWindow = make_window()
    connect(qtbot, window, spec_only)
    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
        open_by_id(qtbot, window, "a_writer")  # its Task embeds the style guide
    tab = window.task_tab
    qtbot.waitUntil(lambda: UNSUPPORTED_MESSAGE in said(window, Severity.WARNING), timeout=TIMEOUT)
    assert tab.message_bar.isVisible() and UNSUPPORTED_MESSAGE in tab.message_bar.text()
    assert tab.last_preview is not None and tab.last_preview.unsupported
    # The preview can't know what reaches its file, so the editor marks nothing unreachable.
    assert tab.editor.highlighter.verdict(STYLE_GUIDE) is None
    assert "note text" in window.features_label.text()
    # With no guild known, the server's embed check is skipped, and the status line says so
    # without claiming the server lacks it.
    assert "Embeds not checked: no guild known." in window.features_label.text()
    assert "embed check" not in window.features_label.text()

    tab.links.on_embed_clicked(STYLE_GUIDE)
    qtbot.waitUntil(lambda: tab.links.note_dialog is not None, timeout=TIMEOUT)
    dialog = tab.links.note_dialog
    assert "doesn't share note text" in dialog.unreachable_label.text()
    assert dialog.path_label.text() == STYLE_GUIDE
    actions = tab.links.note_actions  # who uses it: one line on what this server can't say
    assert actions is not None and actions.used_by.summary_label.text() == NO_USED_BY
    assert not actions.edit_button.isVisibleTo(dialog)
    no_traceback(window)


def test_a_member_is_taken_for_an_operator_and_the_refusal_is_clear(
    qtbot, make_window, spec_only: LiveServer
) -> None:
    window: MainWindow = make_window()
    connect(qtbot, window, spec_only, who="mia")
    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
        open_by_id(qtbot, window, "a_helper")
    type_at_end(qtbot, window, "A member's rule.")
    mine = window.task_tab.editor.text()
    window.actions_.save.trigger()
    qtbot.waitUntil(lambda: window.messages.error_box is not None, timeout=TIMEOUT)
    assert "only an operator can change this Task" in window.messages.error_box.text()
    assert window.task_tab.editor.text() == mine  # the edit is not lost
    assert window.task_tab.has_unsaved()
    no_traceback(window)


def test_agents_opened_by_id_are_listed_again_on_that_server(
    qtbot, make_window, spec_only: LiveServer, live_server: LiveServer
) -> None:
    first: MainWindow = make_window()
    connect(qtbot, first, spec_only)
    with qtbot.waitSignal(first.agent_opened, timeout=TIMEOUT):
        open_by_id(qtbot, first, "a_writer")
    with qtbot.waitSignal(first.agent_opened, timeout=TIMEOUT):
        open_by_id(qtbot, first, "a_analyst")
    first.runner.wait_idle()

    second: MainWindow = make_window()
    with qtbot.waitSignal(second.agent_opened, timeout=TIMEOUT) as opened:
        second.connect_to(ConnectRequest(spec_only.url, spec_only.token("ann"), remember=False))
    assert opened.args == ["a_analyst"]  # the last one opened, as on any server
    assert sorted(second.agent_model.agent_ids()) == ["a_analyst", "a_writer"]

    # Another server keeps its own list; the full server lists its agents itself.
    third: MainWindow = make_window()
    with qtbot.waitSignal(third.agent_opened, timeout=TIMEOUT):
        third.connect_to(ConnectRequest(live_server.url, live_server.token("ann"), False))
    assert "a_scout" in third.agent_model.agent_ids()
    assert not third.sidebar.open_by_id_button.isVisible()
    assert not third.features_label.isVisible()
    assert third.connection.features.is_full


def test_a_full_server_shows_no_fallbacks(qtbot, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: window.task_tab.last_preview is not None, timeout=TIMEOUT)
    assert not window.features_label.isVisible() and window.features_label.text() == ""
    assert not window.sidebar.open_by_id_button.isVisible()
    assert window.connection.features.etags is True
    assert UNSUPPORTED_MESSAGE not in said(window)
