"""Every control a screen reader meets is named after the label the operator sees."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractButton, QLineEdit, QToolBar, QWidget

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
