"""A recovered draft can be seen beside the live Task before choosing Recover or Discard."""

from __future__ import annotations

from tests.live_server import LiveServer
from tests.window_steps import LOAD_TIMEOUT_MS, reopen_with_a_draft


def test_compare_shows_the_draft_beside_live_then_recover(
    qtbot, make_window, live_server: LiveServer
) -> None:
    window = reopen_with_a_draft(qtbot, make_window, live_server.url, live_server.token("ann"))
    tab = window.task_tab
    live, draft = tab.state.live, tab.state.draft
    assert live is not None and draft is not None
    tab.draft_banner.compare_button.click()
    compare = tab.task_commands.draft_compare
    dialog = compare.dialog
    assert dialog is not None and dialog.isVisible()
    view = dialog.diff_view
    qtbot.waitUntil(
        lambda: view.model is not None and view.model.change_count > 0, timeout=LOAD_TIMEOUT_MS
    )
    assert (view.old_text, view.new_text) == (live.content, draft.text)
    assert "Unsaved rule." in view.new_text
    dialog.recover_button.click()
    qtbot.waitUntil(lambda: tab.state.draft is None, timeout=LOAD_TIMEOUT_MS)
    assert compare.dialog is None
    assert tab.editor.text() == draft.text and tab.has_unsaved()


def test_closing_the_compare_chooses_nothing(qtbot, make_window, live_server: LiveServer) -> None:
    window = reopen_with_a_draft(qtbot, make_window, live_server.url, live_server.token("ann"))
    tab = window.task_tab
    tab.draft_banner.compare_button.click()
    dialog = tab.task_commands.draft_compare.dialog
    assert dialog is not None
    dialog.close_button.click()  # at once: the diff comes back to a closed dialog
    assert window.runner.wait_idle(LOAD_TIMEOUT_MS)
    assert tab.state.draft is not None and tab.draft_banner.isVisible()
