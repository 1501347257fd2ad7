"""Preview, Edit and Side by side are one choice of three: radio buttons to a screen reader,
checked as the window is; and with the side panel open no focusable node is unnamed."""

from __future__ import annotations

from PySide6.QtGui import QAccessible, QAccessibleActionInterface, QAccessibleInterface
from PySide6.QtWidgets import QToolBar

from widgets.window.main_window import MainWindow


def _nodes(interface: QAccessibleInterface, depth: int = 0) -> list[QAccessibleInterface]:
    found = []
    for i in range(interface.childCount()):
        child = interface.child(i)
        if child is None or not child.isValid() or child.state().invisible:
            continue
        found.append(child)
        if depth < 14:
            found.extend(_nodes(child, depth + 1))
    return found


def test_the_three_modes_are_radio_buttons_checked_as_shown(qtbot, window: MainWindow) -> None:
    toolbar = window.findChild(QToolBar)
    buttons = {
        name: QAccessible.queryAccessibleInterface(toolbar.widgetForAction(action))
        for name, action in (
            ("Preview", window.actions_.preview),
            ("Edit", window.actions_.edit),
            ("Side by side", window.actions_.side_by_side),
        )
    }
    for name, interface in buttons.items():
        assert interface.role() == QAccessible.Role.RadioButton, name
        assert interface.text(QAccessible.Text.Name) == name
    assert buttons["Preview"].state().checked and not buttons["Edit"].state().checked
    press = QAccessibleActionInterface.pressAction()
    assert press in buttons["Edit"].actionInterface().actionNames()
    buttons["Edit"].actionInterface().doAction(press)
    assert window.actions_.edit.isChecked()
    assert buttons["Edit"].state().checked and not buttons["Preview"].state().checked


def test_no_focusable_node_is_unnamed_with_the_side_panel_open(qtbot, window: MainWindow) -> None:
    window.actions_.edit.trigger()
    window.task_tab.insight.commands.references.trigger()
    qtbot.waitUntil(lambda: window.task_tab.side_panel is not None)
    unnamed = [
        f"{node.role()!r} ({type(node.object()).__name__})"
        for node in _nodes(QAccessible.queryAccessibleInterface(window))
        if node.state().focusable
        and not node.text(QAccessible.Text.Name)
        and node.role() not in (QAccessible.Role.MenuBar, QAccessible.Role.ScrollBar)
        and node.role()
        not in (
            QAccessible.Role.Cell,
            QAccessible.Role.ListItem,
            QAccessible.Role.TreeItem,
            QAccessible.Role.Row,
        )
    ]
    assert unnamed == []
