"""Keys for everything: the shortcuts list, F6 to the agents and back, targets of 24 px."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QAbstractButton, QApplication, QToolBar, QToolButton

from app.core.resource_files import read_text
from tests.window_steps import LOAD_TIMEOUT_MS
from widgets.common.theme import stylesheet, theme_of
from widgets.window.main_window import MainWindow

NATIVE = QKeySequence.SequenceFormat.NativeText


def _active(qtbot, window: MainWindow) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=LOAD_TIMEOUT_MS)


def test_shortcuts_list_has_every_action_with_a_key(qtbot, window: MainWindow) -> None:
    window.actions_.shortcuts.trigger()
    dialog = window.actions_.shortcuts_dialog
    assert dialog is not None and dialog.isVisible()
    table = dialog.table
    listed = {(table.item(r, 1).text(), table.item(r, 2).text()) for r in range(table.rowCount())}
    with_keys = [a for a in window.actions() if not a.shortcut().isEmpty()]
    assert len(with_keys) > 15
    for action in with_keys:
        name = action.text().replace("&", "").replace("…", "").strip()
        keys = ", ".join(k.toString(NATIVE) for k in action.shortcuts())
        assert (name, keys) in listed, f"{name} ({keys}) is missing"
    assert ("Find Next", "F3") in {(n, k.split(", ")[0]) for n, k in listed}
    dialog.close_button.click()


def test_f6_moves_to_the_agents_list_and_back(qtbot, window: MainWindow) -> None:
    tab = window.task_tab
    _active(qtbot, window)
    window.actions_.edit.trigger()
    assert tab.editor.hasFocus()
    qtbot.keyClick(tab.editor, Qt.Key.Key_F6)
    assert window.sidebar.list_view.hasFocus()
    qtbot.keyClick(window.sidebar.list_view, Qt.Key.Key_F6)
    assert tab.editor.hasFocus()
    window.sidebar.filter_edit.setFocus()  # from anywhere in the sidebar: back to the Task
    qtbot.keyClick(window.sidebar.filter_edit, Qt.Key.Key_F6)
    assert tab.editor.hasFocus(), QApplication.focusWidget()


def test_every_visible_control_is_at_least_24_px(qtbot, window: MainWindow) -> None:
    window.setStyleSheet(stylesheet(theme_of(window.palette())))  # as the launcher does
    window.actions_.editing.replace.trigger()
    window.messages.warning("Something to read.")

    def none_small() -> None:
        small = [
            f"{b.accessibleName() or b.text()!r} is {b.width()}×{b.height()}"
            for b in window.findChildren(QAbstractButton)
            if b.isVisibleTo(window) and (b.width() < 24 or b.height() < 24)
        ]
        assert small == [], "\n".join(small)

    qtbot.waitUntil(none_small)  # once the layouts have taken the stylesheet in


def test_a_narrow_window_offers_the_tools_that_dont_fit(qtbot, window: MainWindow) -> None:
    window.setStyleSheet(read_text("style.qss"))
    window.resize(700, 600)
    toolbar = window.findChild(QToolBar)
    assert toolbar is not None
    overflow = toolbar.findChild(QToolButton, "qt_toolbar_ext_button")
    assert overflow is not None
    qtbot.waitUntil(overflow.isVisible)
    assert not toolbar.widgetForAction(window.actions_.versions).isVisible()
    assert overflow.accessibleName() == "More tools"
    assert not overflow.icon().isNull()
    unnamed = [
        type(b).__name__
        for b in window.findChildren(QAbstractButton)
        if b.isVisibleTo(window) and not b.accessibleName()
    ]
    assert unnamed == []
