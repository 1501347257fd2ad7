"""Text fields that say what they are: a named clear button and a visible search icon."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLineEdit, QToolButton

from widgets.common.icons import icon


def name_clear_button(field: QLineEdit, name: str = "Clear") -> None:
    """Turn on ``field``'s clear button and name it: Qt leaves it unnamed, so a screen reader
    announced a bare "button"."""
    field.setClearButtonEnabled(True)
    for action in field.findChildren(QAction):
        if action.objectName() == "_q_qlineeditclearaction":
            action.setText(name)
            action.setToolTip(name)
    for button in field.findChildren(QToolButton):
        if button.metaObject().className() == "QLineEditIconButton" and not button.accessibleName():
            button.setAccessibleName(name)
            button.setToolTip(name)


def show_search_icon(field: QLineEdit) -> QAction:
    """A magnifier at the start of ``field``: a search box reads as one without its
    placeholder (which goes as soon as the operator types)."""
    action = field.addAction(icon("find"), QLineEdit.ActionPosition.LeadingPosition)
    action.setText("Search")
    for button in field.findChildren(QToolButton):
        if button.metaObject().className() == "QLineEditIconButton" and not button.accessibleName():
            button.setAccessibleName("Search")
    return action
