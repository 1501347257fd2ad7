"""Every control a screen reader meets is named after the label the operator sees."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QAccessibleInterface
from PySide6.QtWidgets import QAbstractButton, QLineEdit, QToolBar, QToolButton, QWidget

from widgets.window.agent_list_model import IS_GUILD_ROLE
from widgets.window.main_window import MainWindow


def _label(text: str) -> str:
    return text.replace("&", "").replace("…", "").strip()


def _unnamed_buttons(root: QWidget) -> list[str]:
    wrong = []
    for button in root.findChildren(QAbstractButton):
        if not button.isVisibleTo(root) or not button.text():
            continue
        if button.accessibleName() != _label(button.text()):
            wrong.append(f"{button.text()!r} is named {button.accessibleName()!r}")
    return wrong


def test_toolbar_buttons_are_named_after_their_labels(window: MainWindow) -> None:
    toolbar = window.findChild(QToolBar)
    assert toolbar is not None
    names = []
    for action in toolbar.actions():
        if action.isSeparator():
            continue
        button = toolbar.widgetForAction(action)
        assert button.accessibleName() == _label(action.text())
        names.append(button.accessibleName())
    assert names == [
        "Preview",
        "Edit",
        "Side by side",
        "Save",
        "Discard changes",
        "Note",
        "Table",
        "Find",
        "Versions",
    ]


def test_visible_buttons_in_the_window_are_named_after_their_labels(window: MainWindow) -> None:
    window.actions_.versions.trigger()
    window.actions_.edit.trigger()
    assert _unnamed_buttons(window) == []


def test_text_fields_have_names(window: MainWindow) -> None:
    for field in window.findChildren(QLineEdit):
        if field.isVisibleTo(window):
            assert field.accessibleName(), f"a text field ({field.placeholderText()!r}) has no name"


def test_dialog_buttons_are_named_after_their_labels(qtbot, window: MainWindow) -> None:
    window.actions_.connect_server.trigger()
    qtbot.waitUntil(lambda: window.connect_dialog is not None, timeout=10_000)
    dialog = window.connect_dialog
    assert _unnamed_buttons(dialog) == []
    dialog.cancel_button.click()


def _tree(interface: QAccessibleInterface, depth: int = 0) -> list[tuple[QAccessible.Role, str]]:
    """(role, name) of every visible node under ``interface``, depth first."""
    found = []
    for i in range(interface.childCount()):
        child = interface.child(i)
        if child is None or not child.isValid() or child.state().invisible:
            continue
        found.append((child.role(), child.text(QAccessible.Text.Name)))
        if depth < 12:
            found.extend(_tree(child, depth + 1))
    return found


def test_the_accessibility_tree_names_the_main_parts(window: MainWindow) -> None:
    """What a screen reader meets in the window: each main part by role and name."""
    role = QAccessible.Role
    tree = set(_tree(QAccessible.queryAccessibleInterface(window)))
    for part in [
        (role.MenuBar, ""),
        (role.ToolBar, "Task tools"),
        (role.EditableText, "Filter agents"),
        (role.List, "Agents"),
        (role.Document, "Preview"),
        (role.RadioButton, "Rendered"),
        (role.RadioButton, "As the agent gets it"),
    ]:
        assert part in tree, f"{part} is not in the window's accessibility tree"
    assert role.StatusBar in {r for r, _ in tree}
    window.actions_.edit.trigger()
    tree = set(_tree(QAccessible.queryAccessibleInterface(window)))
    assert (role.EditableText, "Task text") in tree
    window.actions_.versions.trigger()
    tree = set(_tree(QAccessible.queryAccessibleInterface(window)))
    assert (role.List, "Versions") in tree
    assert (role.RadioButton, "Text") in tree and (role.RadioButton, "Compare with live") in tree


def test_banners_are_alerts_named_by_their_text(window: MainWindow) -> None:
    tab = window.task_tab
    banners = [tab.unreachable_banner, tab.conflict_banner, tab.offline_banner, tab.message_bar]
    for banner in banners:
        interface = QAccessible.queryAccessibleInterface(banner)
        assert interface.role() == QAccessible.Role.AlertMessage
        assert interface.text(QAccessible.Text.Name) == banner.text()


def test_guild_headings_say_they_are_headings_and_cannot_be_chosen(window: MainWindow) -> None:
    model = window.agent_model
    heading = model.index(0)
    assert heading.data(IS_GUILD_ROLE)
    assert heading.data(Qt.ItemDataRole.AccessibleDescriptionRole) == "Guild heading"
    assert not model.flags(heading) & Qt.ItemFlag.ItemIsSelectable


def test_clear_buttons_are_named(window: MainWindow) -> None:
    window.sidebar.filter_edit.setText("x")
    unnamed = [
        f"clear button in {field.accessibleName()!r}"
        for field in window.findChildren(QLineEdit)
        for button in field.findChildren(QToolButton)
        if not button.accessibleName()
    ]
    assert unnamed == []
