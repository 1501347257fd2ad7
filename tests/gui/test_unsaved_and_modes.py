"""The unsaved mark (title, sidebar, header) and mode buttons that show the visible mode."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QColor
from PySide6.QtWidgets import QToolBar

from app.core.resource_files import read_text
from tests.live_server import LiveServer
from tests.window_steps import LOAD_TIMEOUT_MS, reopen_with_a_draft, saved, type_at_end
from widgets.window.main_window import MainWindow


def _row_text(window: MainWindow, agent_id: str, role: int = Qt.ItemDataRole.DisplayRole) -> str:
    model = window.agent_model
    return str(model.index(model.row_of(agent_id)).data(role))


def test_unsaved_edits_are_marked_in_title_sidebar_and_header(qtbot, window: MainWindow) -> None:
    tab = window.task_tab
    agent_id = tab.agent.id if tab.agent else ""
    name = tab.agent_name()
    assert window.unsaved_marks.title() == f"{name} — Taskdesk"
    assert not window.isWindowModified()
    assert _row_text(window, agent_id) == name
    assert not tab.header.unsaved_label.isVisibleTo(tab)

    type_at_end(qtbot, window, "One more rule.")
    assert window.unsaved_marks.title() == f"• {name} — Taskdesk"
    assert window.isWindowModified()
    assert _row_text(window, agent_id) == f"{name} •"
    accessible = _row_text(window, agent_id, Qt.ItemDataRole.AccessibleTextRole)
    assert "unsaved changes" in accessible
    assert tab.header.unsaved_label.isVisibleTo(tab)

    window.actions_.save.trigger()
    qtbot.waitUntil(lambda: saved(window), timeout=LOAD_TIMEOUT_MS)
    assert window.unsaved_marks.title() == f"{name} — Taskdesk"
    assert not window.isWindowModified()
    assert _row_text(window, agent_id) == name
    assert not tab.header.unsaved_label.isVisibleTo(tab)


def _background(window: MainWindow, action: QAction) -> QColor:
    if not window.styleSheet():
        window.setStyleSheet(read_text("style.qss"))  # as the launcher styles the app
    toolbar = window.findChild(QToolBar)
    assert toolbar is not None
    button = toolbar.widgetForAction(action)
    image = button.grab().toImage()
    return image.pixelColor(image.width() // 2, 2)


def assert_modes_tell_the_truth(window: MainWindow) -> None:
    """Exactly one mode is checked, it is the one on screen, and its button looks pressed."""
    tab = window.task_tab
    preview, edit = window.actions_.preview, window.actions_.edit
    assert preview.isChecked() != edit.isChecked()
    shown = tab.modes.currentWidget()
    assert shown is (tab.work_area.edit_page if edit.isChecked() else tab.preview)
    checked, unchecked = (edit, preview) if edit.isChecked() else (preview, edit)
    assert _background(window, checked) != _background(window, unchecked)


def test_mode_buttons_show_the_visible_mode_at_start_and_after_switching(
    qtbot, window: MainWindow
) -> None:
    assert window.actions_.preview.isChecked()
    assert_modes_tell_the_truth(window)
    window.actions_.edit.trigger()
    assert_modes_tell_the_truth(window)
    window.actions_.versions.trigger()
    window.actions_.versions.trigger()
    assert_modes_tell_the_truth(window)
    window.actions_.preview.trigger()
    assert_modes_tell_the_truth(window)


def test_mode_buttons_show_edit_after_draft_recovery(
    qtbot, make_window, live_server: LiveServer
) -> None:
    second = reopen_with_a_draft(qtbot, make_window, live_server.url, live_server.token("ann"))
    tab = second.task_tab
    assert_modes_tell_the_truth(second)
    tab.draft_banner.recover_button.click()
    assert second.actions_.edit.isChecked()
    assert_modes_tell_the_truth(second)
    assert second.unsaved_marks.title().startswith("• ")
