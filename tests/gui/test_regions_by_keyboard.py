"""Ctrl+Tab and Ctrl+Shift+Tab move focus between the window's regions; a panel's shortcut
moves focus into it; a References row is activated with Return; all with keys alone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from app.client import TaskdeskClient
from tests.live_server import LiveServer
from tests.window_steps import LOAD_TIMEOUT_MS
from widgets.window.main_window import MainWindow

Key = Qt.Key
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def bob(live_server: LiveServer) -> Iterator[TaskdeskClient]:
    with TaskdeskClient(live_server.url, live_server.token("bob")) as client:
        yield client


def _focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None, "focus went nowhere"
    return widget


def press(qtbot, key: Key, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(_focused(), key, modifiers)


def _inside(widget: QWidget) -> bool:
    focused = QApplication.focusWidget()
    return focused is not None and (focused is widget or widget.isAncestorOf(focused))


def _activate(qtbot, window: MainWindow) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=LOAD_TIMEOUT_MS)


def test_ctrl_tab_walks_agents_task_side_panel_and_back(qtbot, window: MainWindow) -> None:
    tab = window.task_tab
    _activate(qtbot, window)
    window.sidebar.list_view.setFocus()
    press(qtbot, Key.Key_Tab, CTRL)
    shown = [b for b in tab.banners.every_banner() if b.isVisible()]
    if shown:  # Scout's unreachable embed has its banner: the banner region comes first
        assert _inside(shown[0])
        press(qtbot, Key.Key_Tab, CTRL)
    assert _inside(tab.work_area)

    # Ctrl+Shift+R opens References with focus in its tree, not left in the Task.
    press(qtbot, Key.Key_R, CTRL | SHIFT)
    panel = tab.side_panel
    assert panel is not None and panel.isVisible()
    assert _focused() is panel.references.tree

    press(qtbot, Key.Key_Tab, CTRL)  # wraps around to the agents list
    assert _focused() is window.sidebar.list_view
    press(qtbot, Key.Key_Tab, CTRL | SHIFT)  # and back, the other way
    assert _focused() is panel.references.tree
    press(qtbot, Key.Key_Tab, CTRL | SHIFT)
    assert _inside(tab.work_area)
    press(qtbot, Key.Key_Tab, CTRL | SHIFT)
    if shown:
        assert _inside(shown[0])
        press(qtbot, Key.Key_Tab, CTRL | SHIFT)
    assert _focused() is window.sidebar.list_view


def test_a_references_row_opens_from_the_keyboard(qtbot, window: MainWindow) -> None:
    tab = window.task_tab
    _activate(qtbot, window)
    press(qtbot, Key.Key_R, CTRL | SHIFT)
    panel = tab.side_panel
    assert panel is not None
    tree = panel.references.tree
    qtbot.waitUntil(lambda: tree.model() is not None and tree.model().rowCount() > 0)
    tree.setCurrentIndex(tree.model().index(0, 0))
    with qtbot.waitSignal(panel.references.jump_requested, timeout=LOAD_TIMEOUT_MS):
        press(qtbot, Key.Key_Return)


def test_ctrl_tab_reaches_the_banner_buttons(qtbot, window: MainWindow, bob) -> None:
    tab = window.task_tab
    _activate(qtbot, window)
    window.actions_.edit.trigger()
    agent_id = tab.agent.id
    base = bob.get_task(agent_id)
    bob.put_task(agent_id, base.content + "\nBob's rule.", base.version)
    qtbot.keyClicks(tab.editor, " Sign every reply.")
    press(qtbot, Key.Key_S, CTRL)
    qtbot.waitUntil(tab.conflict_banner.isVisible, timeout=LOAD_TIMEOUT_MS)

    window.sidebar.list_view.setFocus()
    press(qtbot, Key.Key_Tab, CTRL)
    assert _inside(tab.conflict_banner)
    press(qtbot, Key.Key_Tab, CTRL)
    assert _inside(tab.work_area)
