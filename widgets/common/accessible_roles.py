"""Accessible roles Qt gives no setter for (an alert, a document), and announcing an alert."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAccessible, QAccessibleEvent, QAccessibleInterface
from PySide6.QtWidgets import QAccessibleWidget, QWidget

ROLE_PROPERTY = "taskdeskAccessibleRole"

_installed = False  # one factory for the process: Qt keeps a list of them, never a reset


def _role_factory(_class_name: str, obj: QObject) -> QAccessibleInterface | None:
    if not isinstance(obj, QWidget):
        return None
    role = obj.property(ROLE_PROPERTY)
    if role is None:
        return None
    return QAccessibleWidget(obj, QAccessible.Role(role))


def set_accessible_role(widget: QWidget, role: QAccessible.Role) -> None:
    """Expose ``widget`` to screen readers with ``role`` (its children stay as they are).

    Set before the widget is first shown: Qt caches a widget's interface once made.
    """
    global _installed
    if not _installed:
        QAccessible.installFactory(_role_factory)
        _installed = True
    widget.setProperty(ROLE_PROPERTY, role.value)


def announce(widget: QWidget) -> None:
    """Tell screen readers that ``widget`` (an alert) appeared or changed its text."""
    QAccessible.updateAccessibility(QAccessibleEvent(widget, QAccessible.Event.Alert))
