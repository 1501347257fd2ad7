"""A member reads the Task: read-only, with the reason, while Preview, Versions and Compare work."""

from __future__ import annotations

from tests.live_server import LiveServer
from tests.window_steps import WindowFactory, sign_in

TIMEOUT = 10_000


def test_a_member_sees_the_task_read_only_with_the_reason(
    qtbot, make_window: WindowFactory, live_server: LiveServer
) -> None:
    window = make_window()
    sign_in(qtbot, window, live_server.url, live_server.token("mia"))
    tab, actions = window.task_tab, window.actions_
    qtbot.waitUntil(lambda: tab.last_preview is not None, timeout=TIMEOUT)  # Preview works

    banner = tab.read_only.banner
    assert banner.isVisible()
    assert "Read-only" in banner.text() and "Mia" in banner.text() and "member" in banner.text()
    assert "\n" not in banner.text()
    assert tab.editor.isReadOnly()
    for action in (actions.edit, actions.save, actions.insert_note, actions.insert_table):
        assert not action.isEnabled(), action.text()
    assert actions.preview.isEnabled() and actions.versions.isEnabled()
    tab.set_mode_edit(True)  # a double-click on the preview asks for Edit: it stays Preview
    assert tab.modes.currentWidget() is tab.preview

    # Versions read, and Compare works; Restore is not offered.
    actions.versions.trigger()
    panel = tab.versions
    assert panel.isVisible()
    qtbot.waitUntil(lambda: panel.model.rowCount() > 1, timeout=TIMEOUT)
    panel.select_row(1)
    assert not panel.restore_button.isEnabled()
    panel.compare_button.click()
    qtbot.waitUntil(lambda: panel.diff_view.model.change_count > 0, timeout=TIMEOUT)


def test_an_operator_can_edit_and_sees_no_read_only_line(qtbot, window) -> None:
    assert not window.task_tab.read_only.banner.isVisible()
    assert not window.task_tab.editor.isReadOnly()
    assert window.actions_.edit.isEnabled() and window.actions_.save.isEnabled()
