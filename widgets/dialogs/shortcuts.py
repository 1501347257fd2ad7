"""Help › Keyboard shortcuts: every shortcut of the window, read from its actions."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMenu,
    QMenuBar,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)


def _plain(text: str) -> str:
    return text.replace("&", "").replace("…", "").strip()


def _keys(action: QAction) -> str:
    native = QKeySequence.SequenceFormat.NativeText
    return ", ".join(k.toString(native) for k in action.shortcuts() if not k.isEmpty())


def shortcut_rows(menu_bar: QMenuBar, window: QWidget) -> list[tuple[str, str, str]]:
    """(where, command, keys) for each action with a shortcut: the menus' in menu order,
    then the window's own actions that no menu shows. Nothing is written by hand, so the
    list can't drift from what the keys do."""
    rows: list[tuple[str, str, str]] = []
    seen: set[int] = set()

    def walk(menu: QMenu, where: str) -> None:
        for action in menu.actions():
            sub = action.menu()
            if isinstance(sub, QMenu):
                walk(sub, f"{where} › {_plain(action.text())}")
            elif not action.isSeparator():
                seen.add(id(action))
                if _keys(action):
                    rows.append((where, _plain(action.text()), _keys(action)))

    for top in menu_bar.actions():
        menu = top.menu()
        if isinstance(menu, QMenu):
            walk(menu, _plain(top.text()))
    for action in window.actions():
        if id(action) not in seen and _keys(action):
            rows.append(("Window", _plain(action.text()), _keys(action)))
    return rows


class ShortcutsDialog(QDialog):
    """A table of ``shortcut_rows``; ``table`` and ``close_button`` for tests."""

    def __init__(self, rows: list[tuple[str, str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.table = QTableWidget(len(rows), 3)
        self.table.setAccessibleName("Keyboard shortcuts")
        self.table.setHorizontalHeaderLabels(["Menu", "Command", "Keys"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        buttons = QDialogButtonBox()
        self.close_button = buttons.addButton("&Close", QDialogButtonBox.ButtonRole.RejectRole)
        self.close_button.setAccessibleName("Close")
        self.close_button.clicked.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.resize(560, 520)
        self.table.setFocus()
