"""The window's actions, menus and toolbar: labels, shortcuts and icons in one place."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QActionGroup, QIcon, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenuBar, QToolBar, QToolButton, QWidget

from widgets.common.accessible_roles import set_radio_role
from widgets.common.icons import IconName, icon
from widgets.window.edit_menu import EditActions

if TYPE_CHECKING:
    from widgets.dialogs.getting_started import GettingStartedDialog
    from widgets.dialogs.shortcuts import ShortcutsDialog


def _plain(label: str) -> str:
    """The label as a screen reader says it: no mnemonic ampersand, no ellipsis."""
    return label.replace("&", "").replace("…", "").strip()


class WindowActions(QObject):
    """Every command of the window as a QAction; the window connects them to its slots.

    Each action's accessible name (its object name's tooltip and status tip too) is its
    visible label, so what a screen reader says matches what the operator sees.
    """

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self._window = window
        self.preview = self._action("&Preview", "preview", QKeySequence("Ctrl+Shift+P"))
        self.edit = self._action("&Edit", "edit", QKeySequence("Ctrl+Shift+E"))
        self.side_by_side = self._action(
            "Side &by side", "side_by_side", QKeySequence("Ctrl+Shift+B")
        )
        self.side_by_side.setToolTip(
            "Edit and Preview side by side, the preview following the editor (Ctrl+Shift+B)"
        )
        self.mode_group = QActionGroup(self)
        self.mode_group.setExclusive(True)
        for action in (self.preview, self.edit, self.side_by_side):
            action.setCheckable(True)
            self.mode_group.addAction(action)
        self.preview.setChecked(True)  # the Task opens in Preview

        self.save = self._action("&Save", None, QKeySequence(QKeySequence.StandardKey.Save))
        self.discard = self._action("&Discard changes", None)
        self.local_history = self._action("Local &history…", None)
        self.insert_note = self._action("&Note…", "note", QKeySequence("Ctrl+Shift+N"))
        self.insert_table = self._action("&Table…", "collection", QKeySequence("Ctrl+Shift+T"))
        self.find = self._action("&Find…", "find", QKeySequence(QKeySequence.StandardKey.Find))
        self.open_note = self._action("Open &note…", None)
        self.open_note.setToolTip("Open a note in its editor: who uses it, and what an edit does")
        self.move_note = self._action("&Move note…", None)
        self.move_note.setToolTip(
            "Rename or move a note: every embed of it rewritten as one change set, previewed first"
        )
        self.move_to_note = self._action("&Move to a note…", None)
        self.move_to_note.setToolTip(
            "Move the selected text into a new note, embedded where it was"
        )
        self.editing = EditActions(
            window, lambda label, key: self._action(label, None, QKeySequence(key or ""))
        )
        self.versions = self._action("&Versions", "history", QKeySequence("Ctrl+Shift+H"))
        self.proposals = self._action("P&roposals", None)  # the org's open ones, to review
        # A member's "Propose a change…" (the read-only banner) and an operator's choice to
        # hand the edit to review instead of publishing it.
        self.propose = self._action("Save as &proposal…", None)
        self.versions.setCheckable(True)
        self.fleet = self._action("&Fleet", None, QKeySequence("Ctrl+Shift+A"))
        self.fleet.setToolTip(
            "Every agent at a glance: sizes, budget, embeds, shape (Ctrl+Shift+A)"
        )
        self.search_every_task = self._action(
            "&Search every Task…", None, QKeySequence("Ctrl+Shift+F")
        )
        self.audit = self._action("&Audit", None)
        self.audit.setToolTip("Every save, restore, note edit and change set, with CSV export")
        self.connect_server = self._action("&Connect to server…", None)
        self.open_local = self._action("Open &local workspace", None)
        self.quit = self._action("&Quit", None, QKeySequence(QKeySequence.StandardKey.Quit))
        if self.quit.shortcut().isEmpty():
            self.quit.setShortcut(QKeySequence("Ctrl+Q"))  # some platforms define none
        self.jump_to_agents = self._action("&Agents list and back", None, QKeySequence("F6"))
        self.jump_to_agents.setToolTip("Move to the agents list, and back to the Task (F6)")
        # Tab types a tab in the editor: the window's regions have Ctrl+Tab of their own.
        self.next_region = self._action("&Next region", None, QKeySequence("Ctrl+Tab"))
        self.previous_region = self._action(
            "P&revious region", None, QKeySequence("Ctrl+Shift+Tab")
        )
        for action, way in ((self.next_region, "next"), (self.previous_region, "previous")):
            action.setToolTip(
                f"Move to the {way} part of the window: agents, banner, Task, side panel"
            )
        self.shortcuts = self._action(
            "&Keyboard shortcuts", None, QKeySequence(QKeySequence.StandardKey.HelpContents)
        )
        self.shortcuts_dialog: ShortcutsDialog | None = None
        self.shortcuts.triggered.connect(self.open_shortcuts)
        self.getting_started = self._action("&Getting started", None)
        self.getting_started_dialog: GettingStartedDialog | None = None
        self.getting_started.triggered.connect(self.open_getting_started)
        self.about = self._action("&About Taskdesk", None)
        self.about.setMenuRole(QAction.MenuRole.AboutRole)  # macOS: in the application menu
        self.about.triggered.connect(lambda: _open_about(window))
        self.insert_note.setToolTip("Insert a note at the cursor as ![[display-path]]")
        self.insert_table.setToolTip("Insert a collection at the cursor as ![[display-path]]")
        self.discard.setToolTip("Drop the unsaved edits (Edit › Undo brings them back)")
        self.local_history.setToolTip(
            "Texts you discarded or replaced on this computer: browse, copy or insert them"
        )

    def _action(
        self, label: str, icon_name: IconName | None, shortcut: QKeySequence | None = None
    ) -> QAction:
        action = QAction(icon(icon_name) if icon_name else QIcon(), label, self._window)
        name = _plain(label)
        action.setObjectName(name)
        action.setStatusTip(name)
        if shortcut is not None and not shortcut.isEmpty():
            action.setShortcut(shortcut)
            action.setToolTip(
                f"{name} ({shortcut.toString(QKeySequence.SequenceFormat.NativeText)})"
            )
        else:
            action.setToolTip(name)
        self._window.addAction(action)  # shortcuts work even while the toolbar is hidden
        return action

    def task_actions(self) -> list[QAction]:
        """The actions that need an open Task."""
        return [
            self.preview,
            self.edit,
            self.side_by_side,
            self.save,
            self.discard,
            self.local_history,
            self.insert_note,
            self.insert_table,
            self.find,
            self.versions,
            self.move_to_note,
            self.open_note,
        ]

    def build_menus(self, menu_bar: QMenuBar) -> None:
        file_menu = menu_bar.addMenu("&File")
        file_menu.addAction(self.save)
        file_menu.addAction(self.discard)
        file_menu.addAction(self.local_history)
        file_menu.addAction(self.open_note)
        file_menu.addAction(self.move_note)
        file_menu.addAction(self.propose)
        file_menu.addSeparator()
        file_menu.addAction(self.connect_server)
        file_menu.addAction(self.open_local)
        self.recent_menu = file_menu.addMenu("Recent &servers")
        file_menu.addSeparator()
        file_menu.addAction(self.quit)
        edit_menu = menu_bar.addMenu("&Edit")
        self.editing.fill(edit_menu, self.find)
        edit_menu.addSeparator()
        edit_menu.addAction(self.move_to_note)
        insert_menu = menu_bar.addMenu("&Insert")
        insert_menu.addAction(self.insert_note)
        insert_menu.addAction(self.insert_table)
        view_menu = menu_bar.addMenu("&View")
        view_menu.addAction(self.preview)
        view_menu.addAction(self.edit)
        view_menu.addAction(self.side_by_side)
        view_menu.addSeparator()
        view_menu.addAction(self.versions)
        view_menu.addAction(self.proposals)
        view_menu.addSeparator()
        view_menu.addAction(self.jump_to_agents)
        view_menu.addAction(self.next_region)
        view_menu.addAction(self.previous_region)
        view_menu.addSeparator()
        view_menu.addAction(self.fleet)
        view_menu.addAction(self.search_every_task)
        view_menu.addAction(self.audit)
        help_menu = menu_bar.addMenu("&Help")
        help_menu.addAction(self.getting_started)
        help_menu.addAction(self.shortcuts)
        help_menu.addAction(self.about)
        self.insert_menu = insert_menu
        self._menu_bar = menu_bar
        self.view_menu = view_menu

    def open_shortcuts(self) -> None:
        """Help › Keyboard shortcuts: the table built from the actions as they are now."""
        from widgets.dialogs.shortcuts import ShortcutsDialog, shortcut_rows  # on first use

        dialog = ShortcutsDialog(shortcut_rows(self._menu_bar, self._window), self._window)
        self.shortcuts_dialog = dialog
        dialog.finished.connect(lambda _: setattr(self, "shortcuts_dialog", None))
        dialog.open()

    def open_getting_started(self) -> None:
        """Help › Getting started: the first steps."""
        from widgets.dialogs.getting_started import GettingStartedDialog  # on first use

        dialog = GettingStartedDialog(self._window)
        self.getting_started_dialog = dialog
        dialog.finished.connect(self._getting_started_closed)
        dialog.open()

    def _getting_started_closed(self, _result: int) -> None:
        dialog, self.getting_started_dialog = self.getting_started_dialog, None
        if dialog is not None:
            dialog.deleteLater()

    def build_toolbar(self, toolbar: QToolBar) -> None:
        toolbar.setAccessibleName("Task tools")
        toolbar.addAction(self.preview)
        toolbar.addAction(self.edit)
        toolbar.addAction(self.side_by_side)
        toolbar.addSeparator()
        toolbar.addAction(self.save)
        toolbar.addAction(self.discard)
        toolbar.addSeparator()
        toolbar.addAction(self.insert_note)
        toolbar.addAction(self.insert_table)
        toolbar.addAction(self.find)
        toolbar.addSeparator()
        toolbar.addAction(self.versions)
        for action in toolbar.actions():
            if action.isSeparator():
                # Not asked for its widget: a separator's is a private Qt class, and PySide6
                # builds a dozen widget classes' enums to find a wrapper for it (~8 ms).
                continue
            button = toolbar.widgetForAction(action)
            if button is not None:
                button.setAccessibleName(_plain(action.text()))
        for action in (self.preview, self.edit, self.side_by_side):
            # One choice of three: read as radio buttons, not as three check boxes.
            mode = toolbar.widgetForAction(action)
            if isinstance(mode, QToolButton):
                set_radio_role(mode)
        # Qt's overflow button (shown when the window is too narrow for every tool) is a
        # nameless checkable button, and its default arrow vanishes under our stylesheet.
        overflow = toolbar.findChild(QToolButton, "qt_toolbar_ext_button")
        if overflow is not None:
            overflow.setAccessibleName("More tools")
            overflow.setToolTip("More tools (the window is too narrow to show them all)")
            overflow.setIcon(icon("more"))


def _open_about(window: QWidget) -> None:
    from widgets.dialogs.about import open_about  # loads its modules on first use

    open_about(window)
