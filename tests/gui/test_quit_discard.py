"""Quit › Discard means discard: the next start offers no draft of the dropped edits."""

from __future__ import annotations

from tests.live_server import LiveServer
from tests.window_steps import LOAD_TIMEOUT_MS, WindowFactory, sign_in, type_at_end


def test_discard_on_quit_leaves_no_draft(
    qtbot, make_window: WindowFactory, live_server: LiveServer
) -> None:
    first = make_window()
    sign_in(qtbot, first, live_server.url, live_server.token("ann"))
    type_at_end(qtbot, first, "An edit to drop.")
    first.actions_.quit.trigger()
    dialog = first.leave_dialog
    assert dialog is not None
    assert "keep" not in dialog.discard_button.text().lower()
    with qtbot.waitSignal(dialog.finished):
        dialog.discard_button.click()
    qtbot.waitUntil(lambda: not first.isVisible(), timeout=LOAD_TIMEOUT_MS)
    first.shutdown()

    second = make_window()
    sign_in(qtbot, second, live_server.url, live_server.token("ann"))
    tab = second.task_tab
    agent_id = tab.agent.id
    assert "An edit to drop." not in tab.editor.text()
    store = second.connection.store
    assert store is not None
    assert store.get_draft(second.connection.url, agent_id) is None
    assert not tab.draft_banner.isVisible()
