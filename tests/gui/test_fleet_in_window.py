"""The fleet from the real window: View › Fleet opens an agent; a search hit opens the Task
in Edit at its line; a member is told in one line, and so is what a spec-only server lacks."""

from __future__ import annotations

from tests.live_server import LiveServer
from tests.window_steps import said
from widgets.window.main_window import MainWindow

TIMEOUT = 15_000


def test_view_fleet_lists_every_agent_and_a_row_opens_it(qtbot, window: MainWindow) -> None:
    window.actions_.fleet.trigger()
    dialog = window.fleet_windows.fleet_view
    assert dialog is not None and dialog.isVisible()
    panel = dialog.panel
    qtbot.waitUntil(lambda: panel.proxy.rowCount() == 4, timeout=TIMEOUT)
    assert "Operations" in {panel.proxy.index(r, 1).data() for r in range(4)}
    row = next(r for r in range(4) if panel.proxy.index(r, 0).data() == "Writer")
    tabs = window.beside_task.tabs
    assert tabs is not None and [tabs.tabText(i) for i in range(2)] == ["Task", "Fleet"]
    assert tabs.currentWidget() is dialog
    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT) as opened:
        panel.table.activated.emit(panel.proxy.index(row, 0))
    assert opened.args == ["a_writer"]
    assert tabs.currentWidget() is window.task_tab  # the agent shows, the Fleet stays a tab
    tabs.tabCloseRequested.emit(0)  # the Task's tab never closes
    tabs.tabCloseRequested.emit(1)
    assert tabs.count() == 1 and window.fleet_windows.fleet_view is None


def test_a_search_hit_opens_the_task_in_edit_at_its_line(qtbot, window: MainWindow) -> None:
    assert window.actions_.search_every_task.shortcut().toString() == "Ctrl+Shift+F"
    window.actions_.search_every_task.trigger()
    dialog = window.fleet_windows.search_dialog
    assert dialog is not None
    qtbot.keyClicks(dialog.query, "one draft per ticket")
    with qtbot.waitSignal(dialog._search.found, timeout=TIMEOUT):
        dialog.find_button.click()
    (agent,) = dialog.found
    assert agent.id == "a_writer"
    hit = dialog.model.item(0).child(0).index()
    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
        dialog.results.activated.emit(hit)
    editor = window.task_tab.editor
    qtbot.waitUntil(lambda: editor.textCursor().blockNumber() + 1 == agent.matches[0].line)
    assert editor.isVisible()


def test_a_member_is_told_the_fleet_is_for_operators(
    qtbot, make_window, live_server: LiveServer
) -> None:
    from tests.window_steps import sign_in

    window: MainWindow = make_window()
    sign_in(qtbot, window, live_server.url, live_server.token("mia"))
    window.actions_.fleet.trigger()
    assert window.fleet_windows.fleet_view is None
    assert said(window)[-1] == "The fleet is for operators: sign in as one to see every agent."


def test_a_spec_only_server_says_what_it_cannot_do(qtbot, make_window, tmp_path) -> None:
    from app.desk.spec_fleet import NO_AGENTS_KNOWN, NO_AUDIT, NO_MOVE
    from app.server import start_server
    from tests.live_server import WORKSPACE_BASIC
    from tests.window_steps import sign_in

    with start_server(WORKSPACE_BASIC, tmp_path / "spec.sqlite3", extensions=False) as server:
        window: MainWindow = make_window()
        sign_in(qtbot, window, server.url, "ann-secret", first_agent=False)
        window.actions_.fleet.trigger()  # no agent opened yet: nothing to read, said so
        panel = window.fleet_windows.fleet_view.panel
        qtbot.waitUntil(lambda: panel.status.text() == NO_AGENTS_KNOWN, timeout=TIMEOUT)
        window.actions_.audit.trigger()
        assert window.fleet_windows.audit_dialog is None
        assert said(window)[-1] == NO_AUDIT
        window.actions_.move_note.trigger()
        assert window.fleet_windows.move_dialog is None
        assert said(window)[-1] == NO_MOVE


def test_an_edit_applied_to_the_selected_agents_goes_through_the_preview(
    qtbot, window: MainWindow, live_server: LiveServer
) -> None:
    import requests

    window.actions_.fleet.trigger()
    panel = window.fleet_windows.fleet_view.panel
    qtbot.waitUntil(lambda: panel.proxy.rowCount() == 4, timeout=TIMEOUT)
    assert not panel.edit_button.isEnabled()
    qtbot.keyClicks(panel.filter, "ops")  # the Operations guild: Scout and Writer
    assert panel.proxy.rowCount() == 2
    panel.table.selectAll()
    assert sorted(panel.selected_ids()) == ["a_scout", "a_writer"]
    panel.edit_button.click()
    asking = window.fleet_windows.edit_dialog
    asking.heading.setText("Work")
    asking.line.setText("- Ask before closing a ticket.")
    asking.preview_button.click()
    qtbot.waitUntil(lambda: window.fleet_windows.preview_dialog is not None, timeout=TIMEOUT)
    preview = window.fleet_windows.preview_dialog
    qtbot.waitUntil(lambda: len(preview.model.rows) == 2, timeout=TIMEOUT)
    assert preview.title.text() == "Insert “- Ask before closing a ticket.” under Work"
    with qtbot.waitSignal(preview.flow.applied, timeout=TIMEOUT):
        preview.apply_button.click()
    task = requests.get(
        live_server.url + "/api/agents/a_writer/files/task.md",
        headers=live_server.auth("ann"),
        timeout=10,
    ).json()
    assert "## Work\n- Ask before closing a ticket.\n" in task["content"]
    assert task["change_set"]["title"] == preview.title.text()


def test_a_search_by_guild(qtbot, window: MainWindow) -> None:
    window.actions_.search_every_task.trigger()
    dialog = window.fleet_windows.search_dialog
    qtbot.keyClicks(dialog.query, "e")  # in every Task
    with qtbot.waitSignal(dialog._search.found, timeout=TIMEOUT):
        dialog.find_button.click()
    everyone = {a.id for a in dialog.found}
    assert {"a_scout", "a_writer", "a_analyst"} <= everyone
    dialog.guild.setCurrentIndex(dialog.guild.findText("Research"))
    with qtbot.waitSignal(dialog._search.found, timeout=TIMEOUT):
        dialog.find_button.click()
    research = {a.id for a in dialog.found}
    assert "a_analyst" in research and research <= {"a_analyst", "a_helper"}
