"""Accessible roles Qt gives no setter for (an alert, a document, a tool button that is one
choice of several), and announcing an alert."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import (
    QAccessible,
    QAccessibleActionInterface,
    QAccessibleEvent,
    QAccessibleInterface,
)
from PySide6.QtWidgets import QAbstractButton, QAccessibleWidget, QWidget

ROLE_PROPERTY = "taskdeskAccessibleRole"
RADIO_PROPERTY = "taskdeskAccessibleRadio"

_installed = False  # one factory for the process: Qt keeps a list of them, never a reset


class _RadioInterface(QAccessibleWidget):
    """A checkable button read as a radio button: its role, its checked state, and press."""

    def __init__(self, button: QAbstractButton) -> None:
        super().__init__(button, QAccessible.Role.RadioButton)
        self._button = button

    def state(self) -> QAccessible.State:
        state = super().state()
        state.checkable = True
        state.checked = self._button.isChecked()
        return state

    def actionNames(self) -> list[str]:
        return [QAccessibleActionInterface.pressAction(), *super().actionNames()]

    def doAction(self, name: str) -> None:
        if name == QAccessibleActionInterface.pressAction():
            self._button.click()
        else:
            super().doAction(name)


def _role_factory(_class_name: str, obj: QObject) -> QAccessibleInterface | None:
    if not isinstance(obj, QWidget):
        return None
    if isinstance(obj, QAbstractButton) and obj.property(RADIO_PROPERTY):
        return _RadioInterface(obj)
    role = obj.property(ROLE_PROPERTY)
    if role is None:
        return None
    return QAccessibleWidget(obj, QAccessible.Role(role))


def set_accessible_role(widget: QWidget, role: QAccessible.Role) -> None:
    """Expose ``widget`` to screen readers with ``role`` (its children stay as they are).

    Set before the widget is first shown: Qt caches a widget's interface once made.
    """
    _install()
    widget.setProperty(ROLE_PROPERTY, role.value)


def set_radio_role(button: QAbstractButton) -> None:
    """Expose a checkable (tool) button that is one choice of a group as a radio button, as
    the segments are: "radio button, checked" instead of "check box". Set before it shows."""
    _install()
    button.setProperty(RADIO_PROPERTY, True)


def _install() -> None:
    global _installed
    if not _installed:
        QAccessible.installFactory(_role_factory)
        _installed = True


def announce(widget: QWidget) -> None:
    """Tell screen readers that ``widget`` (an alert) appeared or changed its text."""
    QAccessible.updateAccessibility(QAccessibleEvent(widget, QAccessible.Event.Alert))
