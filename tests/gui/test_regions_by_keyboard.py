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


def _meet_a_conflict(qtbot, window: MainWindow, bob) -> None:
    """Bob saves while Ann types; Ctrl+S meets it and the conflict banner shows."""
    tab = window.task_tab
    _activate(qtbot, window)
    window.actions_.edit.trigger()
    agent_id = tab.agent.id
    base = bob.get_task(agent_id)
    bob.put_task(agent_id, base.content + "\nBob's rule.", base.version)
    qtbot.keyClicks(tab.editor, " Sign every reply.")
    press(qtbot, Key.Key_S, CTRL)
    qtbot.waitUntil(tab.conflict_banner.isVisible, timeout=LOAD_TIMEOUT_MS)


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
    _meet_a_conflict(qtbot, window, bob)

    window.sidebar.list_view.setFocus()
    press(qtbot, Key.Key_Tab, CTRL)
    assert _inside(tab.conflict_banner)
    press(qtbot, Key.Key_Tab, CTRL)
    assert _inside(tab.work_area)


def test_tab_from_the_agents_list_reaches_the_banner_buttons(
    qtbot, window: MainWindow, bob
) -> None:
    tab = window.task_tab
    _meet_a_conflict(qtbot, window, bob)
    window.sidebar.list_view.setFocus()
    reached = []
    for _ in range(30):
        press(qtbot, Key.Key_Tab)
        reached.append(_focused())
        if _inside(tab.work_area):
            break
    assert any(tab.conflict_banner.isAncestorOf(w) for w in reached), [
        type(w).__name__ + ":" + w.accessibleName() for w in reached
    ]


def test_a_compare_is_read_row_by_row_with_keys_alone(qtbot, window: MainWindow) -> None:
    """Versions (Ctrl+Shift+H), Compare with live (Alt+L), F7: the first change is said and
    its changed lines are cells of a table the accessibility interface hands out."""
    from PySide6.QtGui import QAccessible

    tab = window.task_tab
    _activate(qtbot, window)
    press(qtbot, Key.Key_H, CTRL | SHIFT)
    panel = tab.versions
    qtbot.waitUntil(lambda: panel.selected() is not None and not panel.selected().live)
    press(qtbot, Key.Key_L, Qt.KeyboardModifier.AltModifier)  # pressed as a short animation
    qtbot.waitUntil(panel.compare_button.isChecked, timeout=LOAD_TIMEOUT_MS)
    view = panel.diff_view
    qtbot.waitUntil(lambda: view.model.change_count > 0, timeout=LOAD_TIMEOUT_MS)
    view.canvas.setFocus()
    said: list[str] = []
    view.change_announced.connect(said.append)
    press(qtbot, Key.Key_F7)
    assert said and said[0].startswith(f"Change 1 of {view.model.change_count}")
    assert _focused() is view.reader
    table = QAccessible.queryAccessibleInterface(view.reader)
    cells = [
        table.child(i).text(QAccessible.Text.Name)
        for i in range(table.childCount())
        if table.child(i).role() == QAccessible.Role.Cell
    ]
    first = view.reader.rows.row_at(0)
    assert first.kind in cells
    assert (first.new_text or first.old_text) in cells
