"""View › Side by side: Edit and Preview together, the preview following, remembered."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor

from app.connect.paths import settings_path
from app.connect.settings import load_settings
from tests.live_server import LiveServer
from tests.window_steps import LOAD_TIMEOUT_MS, WindowFactory, sign_in
from widgets.window.main_window import MainWindow


def test_side_by_side_shows_editor_and_preview_together(qtbot, window: MainWindow) -> None:
    tab = window.task_tab
    actions = window.actions_
    actions.side_by_side.trigger()
    assert actions.side_by_side.isChecked()
    assert not actions.preview.isChecked() and not actions.edit.isChecked()
    assert tab.editor.isVisible() and tab.preview.isVisible()
    assert tab.editor.hasFocus()
    tab.editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(tab.editor, " Zebra rule.")
    qtbot.waitUntil(
        lambda: "Zebra rule." in tab.preview.pane.toPlainText(), timeout=LOAD_TIMEOUT_MS
    )
    assert window.status_line.position_label.isVisible()

    actions.edit.trigger()  # one mode at a time again
    assert tab.editor.isVisible() and not tab.preview.isVisible()
    assert tab.modes.currentWidget() is tab.work_area.edit_page
    actions.preview.trigger()
    assert tab.preview.isVisible() and not tab.editor.isVisible()
    assert tab.modes.currentWidget() is tab.preview
    actions.side_by_side.trigger()
    actions.versions.trigger()
    actions.versions.trigger()  # back from the versions: side by side again
    assert tab.editor.isVisible() and tab.preview.isVisible()


def test_preview_follows_the_editors_scroll(qtbot, window: MainWindow) -> None:
    tab = window.task_tab
    window.resize(1200, 500)
    window.actions_.side_by_side.trigger()
    editor = tab.editor
    editor.selectAll()
    for n in range(80):
        editor.insertPlainText(f"Rule {n}: answer within the hour.\n\n")
    pane = tab.preview.pane
    qtbot.waitUntil(lambda: "Rule 79" in pane.toPlainText(), timeout=LOAD_TIMEOUT_MS)
    qtbot.waitUntil(lambda: pane.verticalScrollBar().maximum() > 0, timeout=LOAD_TIMEOUT_MS)
    editor.verticalScrollBar().setValue(editor.verticalScrollBar().maximum())
    qtbot.waitUntil(lambda: pane.scroll_fraction() > 0.95, timeout=LOAD_TIMEOUT_MS)
    editor.verticalScrollBar().setValue(0)
    qtbot.waitUntil(lambda: pane.verticalScrollBar().value() == 0, timeout=LOAD_TIMEOUT_MS)


def test_side_by_side_is_remembered(
    qtbot, make_window: WindowFactory, live_server: LiveServer
) -> None:
    first = make_window()
    sign_in(qtbot, first, live_server.url, live_server.token("ann"))
    first.actions_.side_by_side.trigger()
    qtbot.waitUntil(
        lambda: load_settings(settings_path()).settings.side_by_side, timeout=LOAD_TIMEOUT_MS
    )
    second = make_window()
    sign_in(qtbot, second, live_server.url, live_server.token("ann"))
    qtbot.waitUntil(second.actions_.side_by_side.isChecked, timeout=LOAD_TIMEOUT_MS)
    tab = second.task_tab
    assert tab.editor.isVisible() and tab.preview.isVisible()
    second.actions_.preview.trigger()
    qtbot.waitUntil(
        lambda: not load_settings(settings_path()).settings.side_by_side,
        timeout=LOAD_TIMEOUT_MS,
    )
