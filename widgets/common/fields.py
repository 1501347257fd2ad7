"""Text fields that say what they are: a named clear button and a visible search icon."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLineEdit, QToolButton, QWidget

from widgets.common.icons import icon

TARGET_PX = 24
"""WCAG 2.5.8: a control is a target of at least 24 × 24 px."""


class _AtLeastTarget(QObject):
    """Grows a field's icon button to ``TARGET_PX`` around its centre each time the field
    places it: Qt sizes them from the 16 px icon (22 × 18), too small to hit."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and isinstance(watched, QWidget):
            rect = watched.geometry()
            if rect.width() < TARGET_PX or rect.height() < TARGET_PX:
                grown = QRect(0, 0, max(rect.width(), TARGET_PX), max(rect.height(), TARGET_PX))
                grown.moveCenter(rect.center())
                parent = watched.parentWidget()
                if parent is not None:  # kept inside the field
                    grown.moveTop(max(0, min(grown.top(), parent.height() - grown.height())))
                watched.setGeometry(grown)
        return super().eventFilter(watched, event)


def _grow_icon_buttons(field: QLineEdit) -> None:
    for button in field.findChildren(QToolButton):
        if button.metaObject().className() == "QLineEditIconButton" and not button.property(
            "target_grown"
        ):
            button.setProperty("target_grown", True)
            button.installEventFilter(_AtLeastTarget(button))


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
    _grow_icon_buttons(field)


def show_search_icon(field: QLineEdit) -> QAction:
    """A magnifier at the start of ``field``: a search box reads as one without its
    placeholder (which goes as soon as the operator types)."""
    action = field.addAction(icon("find"), QLineEdit.ActionPosition.LeadingPosition)
    action.setText("Search")
    for button in field.findChildren(QToolButton):
        if button.metaObject().className() == "QLineEditIconButton" and not button.accessibleName():
            button.setAccessibleName("Search")
    _grow_icon_buttons(field)
    return action
