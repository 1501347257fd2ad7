"""Two people on one server: a colleague's save shows at once, presence in the header and
the sidebar; a server without live events says so in one line."""

from __future__ import annotations

from typing import Any

from app.client import TaskdeskClient
from tests.live_server import LiveServer, ServerFactory
from tests.server.http_calls import get_task, put_task
from tests.window_steps import WindowFactory, open_agent, sign_in, type_at_end
from widgets.window.agent_list_model import AGENT_ID_ROLE, EDITED_MARK, PROPOSALS_MARK
from widgets.window.live_marks import NO_LIVE_EVENTS
from widgets.window.main_window import MainWindow

HOP_1 = "org/o_acme/guilds/guild_ops/style-guide.md"  # the Writer's Task embeds it
GONE = "org/o_acme/gone.md"
BEFORE_THE_POLL_MS = 5_000  # the poll comes every 15 s: anything sooner is the live feed


def _live(qtbot: Any, window: MainWindow) -> None:
    qtbot.waitUntil(
        lambda: window.live_marks.feed is not None and window.live_marks.feed.mode.value == "live",
        timeout=BEFORE_THE_POLL_MS,
    )


def _sidebar_text(window: MainWindow, agent_id: str) -> str:
    model = window.agent_model
    for row in range(model.rowCount()):
        index = model.index(row)
        if index.data(AGENT_ID_ROLE) == agent_id:
            return str(index.data())
    raise AssertionError(f"{agent_id} is not in the sidebar")


def test_a_colleagues_save_loads_at_once_when_there_are_no_edits(
    qtbot: Any, make_window: WindowFactory, live_server: LiveServer
) -> None:
    ann = make_window()
    sign_in(qtbot, ann, live_server.url, live_server.token("ann"))
    _live(qtbot, ann)
    assert ann.task_tab.session is not None and ann.task_tab.session.agent_id == "a_scout"
    put_task(live_server, "a_scout", {"content": "Bob's new Task."}, who="bob")
    qtbot.waitUntil(
        lambda: ann.task_tab.editor.text() == "Bob's new Task.", timeout=BEFORE_THE_POLL_MS
    )


def test_a_colleagues_save_over_edits_offers_the_merge_before_save(
    qtbot: Any, make_window: WindowFactory, live_server: LiveServer
) -> None:
    ann = make_window()
    sign_in(qtbot, ann, live_server.url, live_server.token("ann"))
    _live(qtbot, ann)
    type_at_end(qtbot, ann, " Ann's words.")
    live = get_task(live_server, "a_scout")
    put_task(
        live_server,
        "a_scout",
        {"content": "Bob's text.", "expected_version": live["version"]},
        who="bob",
    )
    banner = ann.task_tab.conflict_banner
    qtbot.waitUntil(banner.isVisible, timeout=BEFORE_THE_POLL_MS)
    assert ann.task_tab.editor.text().endswith(" Ann's words.")  # nothing of hers is lost
    assert banner.merge_button.isVisible()


def test_presence_shows_who_is_looking_and_who_is_editing(
    qtbot: Any, make_window: WindowFactory, live_server: LiveServer
) -> None:
    ann = make_window()
    sign_in(qtbot, ann, live_server.url, live_server.token("ann"))
    _live(qtbot, ann)
    bob = make_window()
    sign_in(qtbot, bob, live_server.url, live_server.token("bob"))
    header = ann.task_tab.header
    qtbot.waitUntil(
        lambda: header.presence_label.text().startswith("Bob has this Task open"),
        timeout=BEFORE_THE_POLL_MS,
    )
    assert header.presence_label.isVisible()
    assert EDITED_MARK not in _sidebar_text(ann, "a_scout")
    type_at_end(qtbot, bob, " Bob types.")
    qtbot.waitUntil(
        lambda: header.presence_label.text().startswith("Bob is editing this Task ("),
        timeout=BEFORE_THE_POLL_MS,
    )
    qtbot.waitUntil(
        lambda: EDITED_MARK in _sidebar_text(ann, "a_scout"), timeout=BEFORE_THE_POLL_MS
    )
    # Ann's own presence is not shown to herself.
    assert "Ann" not in header.presence_label.text()
    # Ann opens another agent: the line is for the Task on screen only.
    open_agent(qtbot, ann, "a_writer")
    assert ann.task_tab.header.presence_label.text() == ""
    assert EDITED_MARK in _sidebar_text(ann, "a_scout")


def test_a_server_without_live_events_says_so_once(
    qtbot: Any,
    make_window: WindowFactory,
    server_factory: ServerFactory,
    workspace_basic: dict[str, Any],
) -> None:
    from app.server import start_server

    server = server_factory(workspace_basic)
    server.stop()
    handle = start_server(server.workspace_path, server.db_path, extensions=False)
    try:
        ann = make_window()
        sign_in(qtbot, ann, handle.url, server.token("ann"), first_agent=False)
        qtbot.waitUntil(
            lambda: NO_LIVE_EVENTS in [t for t, _ in ann.messages.history],
            timeout=BEFORE_THE_POLL_MS,
        )
        assert [t for t, _ in ann.messages.history].count(NO_LIVE_EVENTS) == 1
    finally:
        handle.stop()


def test_a_colleagues_note_save_marks_the_open_task_before_the_poll(
    qtbot: Any, make_window: WindowFactory, live_server: LiveServer
) -> None:
    ann = make_window()
    sign_in(qtbot, ann, live_server.url, live_server.token("ann"))
    _live(qtbot, ann)
    open_agent(qtbot, ann, "a_writer")
    tab = ann.task_tab
    qtbot.waitUntil(lambda: tab.state.live is not None, timeout=BEFORE_THE_POLL_MS)
    assert not tab.unreachable_banner.isVisible()
    with TaskdeskClient(live_server.url, live_server.token("bob")) as bob:
        note = bob.note_doc(HOP_1)  # the Writer's Task embeds it: now it embeds a missing note
        bob.put_note(HOP_1, note.text + f"\n![[{GONE}]]\n", note.version)
    qtbot.waitUntil(
        lambda: (
            tab.unreachable_banner.isVisible()
            and any(b.path == GONE for b in ann.agent_model.broken_embeds("a_writer"))
        ),
        timeout=BEFORE_THE_POLL_MS,
    )


def test_a_proposal_made_elsewhere_reaches_the_operators_sidebar_at_once(
    qtbot: Any, make_window: WindowFactory, live_server: LiveServer
) -> None:
    ann = make_window()
    sign_in(qtbot, ann, live_server.url, live_server.token("ann"))
    _live(qtbot, ann)
    assert ann.proposals.queue is not None  # the hub follows the window's server
    live = get_task(live_server, "a_scout", who="mia")
    with TaskdeskClient(live_server.url, live_server.token("mia")) as mia:
        mia.propose(
            "a_scout", live["content"] + "\nFlag refunds first.\n", live["version"], "Refunds"
        )
    qtbot.waitUntil(
        lambda: f"{PROPOSALS_MARK}1" in _sidebar_text(ann, "a_scout"),
        timeout=BEFORE_THE_POLL_MS,
    )
