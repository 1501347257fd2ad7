"""The Edit menu: undo, clipboard, selection, find and go to line, enabled as the editor allows."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

if TYPE_CHECKING:  # the editor's modules load after the first paint, with the Task tab
    from widgets.editor.find_bar import FindBar
    from widgets.editor.go_to_line import GoToLineDialog
    from widgets.editor.task_editor import TaskEditor

StandardKey = QKeySequence.StandardKey
ActionFactory = Callable[[str, StandardKey | str | None], QAction]


def _keys(standard: StandardKey, fallback: str) -> list[QKeySequence]:
    """The platform's keys for ``standard``, and ``fallback`` where the platform has none."""
    keys = QKeySequence.keyBindings(standard)
    fallback_key = QKeySequence(fallback)
    if fallback_key not in keys:
        keys.insert(0, fallback_key)
    return keys


class EditActions(QObject):
    """The Edit menu's actions, bound to one ``TaskEditor`` and its ``FindBar``.

    Undo, Redo, Cut, Copy and Paste are enabled exactly when the editor can do them (its
    undo stack, its selection, the clipboard, whether it is read-only or waiting for a
    Task); the rest while a Task is open. Actions that change the text show the editor.
    """

    def __init__(self, window: QWidget, make: ActionFactory) -> None:
        super().__init__(window)
        self._window = window
        self.undo = make("&Undo", StandardKey.Undo)
        self.redo = make("&Redo", StandardKey.Redo)
        self.cut = make("Cu&t", StandardKey.Cut)
        self.copy = make("&Copy", StandardKey.Copy)
        self.paste = make("&Paste", StandardKey.Paste)
        self.paste_plain = make("Paste as plain te&xt", "Ctrl+Shift+V")
        self.select_all = make("Select &All", StandardKey.SelectAll)
        self.find_next = make("Find &Next", None)
        self.find_next.setShortcuts(_keys(StandardKey.FindNext, "F3"))
        self.find_previous = make("Find Pre&vious", None)
        self.find_previous.setShortcuts(_keys(StandardKey.FindPrevious, "Shift+F3"))
        self.replace = make("R&eplace…", "Ctrl+H")
        self.go_to_line = make("&Go to Line…", "Ctrl+L")
        self.go_to_line_dialog: GoToLineDialog | None = None
        self._editor: TaskEditor | None = None
        self._find_bar: FindBar | None = None
        self._show_editor: Callable[[], None] = lambda: None
        self.paste_plain.setToolTip("Paste the clipboard's text without its formatting")
        for action in self.all():
            action.setEnabled(False)
        clipboard = QGuiApplication.clipboard()
        clipboard.dataChanged.connect(self.refresh)

    def all(self) -> list[QAction]:
        return [
            self.undo,
            self.redo,
            self.cut,
            self.copy,
            self.paste,
            self.paste_plain,
            self.select_all,
            self.find_next,
            self.find_previous,
            self.replace,
            self.go_to_line,
        ]

    def fill(self, menu: QMenu, find: QAction) -> None:
        """The Edit menu, in the order every editor has it."""
        menu.addActions([self.undo, self.redo])
        menu.addSeparator()
        menu.addActions([self.cut, self.copy, self.paste, self.paste_plain])
        menu.addSeparator()
        menu.addAction(self.select_all)
        menu.addSeparator()
        menu.addActions([find, self.find_next, self.find_previous, self.replace])
        menu.addSeparator()
        menu.addAction(self.go_to_line)

    def bind(self, editor: TaskEditor, find_bar: FindBar, show_editor: Callable[[], None]) -> None:
        """Act on ``editor``; ``show_editor`` brings it on screen (from Preview or Versions)."""
        self._editor = editor
        self._find_bar = find_bar
        self._show_editor = show_editor
        editor.undoAvailable.connect(self._on_available)  # methods: they end with this object
        editor.redoAvailable.connect(self._on_available)
        editor.copyAvailable.connect(self._on_available)
        editor.installEventFilter(self)  # enabled and read-only changes
        self.undo.triggered.connect(lambda: self._in_editor(editor.undo))
        self.redo.triggered.connect(lambda: self._in_editor(editor.redo))
        self.cut.triggered.connect(lambda: self._in_editor(editor.cut))
        self.copy.triggered.connect(editor.copy)
        self.paste.triggered.connect(lambda: self._in_editor(editor.paste))
        self.paste_plain.triggered.connect(lambda: self._in_editor(self._paste_plain))
        self.select_all.triggered.connect(lambda: self._in_editor(editor.selectAll))
        self.find_next.triggered.connect(lambda: self._find(backward=False))
        self.find_previous.triggered.connect(lambda: self._find(backward=True))
        self.replace.triggered.connect(lambda: self._in_editor(find_bar.show_replace))
        self.go_to_line.triggered.connect(lambda: self._in_editor(self.open_go_to_line))
        self.refresh()

    def _on_available(self, _available: bool) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Each action enabled exactly when the editor can do it now."""
        editor = self._editor
        usable = editor is not None and editor.isEnabledTo(self._window)
        writable = usable and editor is not None and not editor.isReadOnly()
        document = editor.document() if editor is not None else None
        selected = editor is not None and editor.textCursor().hasSelection()
        clipboard = QGuiApplication.clipboard().text()
        self.undo.setEnabled(writable and document is not None and document.isUndoAvailable())
        self.redo.setEnabled(writable and document is not None and document.isRedoAvailable())
        self.cut.setEnabled(writable and selected)
        self.copy.setEnabled(usable and selected)
        self.paste.setEnabled(writable and bool(clipboard))
        self.paste_plain.setEnabled(writable and bool(clipboard))
        self.replace.setEnabled(writable)
        for action in (self.select_all, self.find_next, self.find_previous, self.go_to_line):
            action.setEnabled(usable)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.EnabledChange, QEvent.Type.ReadOnlyChange):
            self.refresh()
        return super().eventFilter(watched, event)

    def open_go_to_line(self) -> None:
        """Ask for a line number; the cursor goes to its start."""
        editor = self._editor
        if editor is None:
            return
        from widgets.editor.go_to_line import GoToLineDialog

        dialog = GoToLineDialog(
            editor.textCursor().blockNumber() + 1, editor.blockCount(), self._window
        )
        self.go_to_line_dialog = dialog

        def answered(result: int) -> None:
            self.go_to_line_dialog = None
            dialog.deleteLater()
            if result:
                editor.go_to_line(dialog.line())
            editor.setFocus()

        dialog.finished.connect(answered)
        dialog.open()

    def _in_editor(self, act: Callable[[], None]) -> None:
        self._show_editor()
        act()

    def _paste_plain(self) -> None:
        if self._editor is not None:
            self._editor.insertPlainText(QGuiApplication.clipboard().text())

    def _find(self, *, backward: bool) -> None:
        """F3 / Shift+F3: the next match of what the find bar holds, else open the find bar."""
        find_bar = self._find_bar
        if find_bar is None:
            return
        self._show_editor()
        if not find_bar.find_field.text():
            find_bar.show_find()
        elif backward:
            find_bar.find_previous()
        else:
            find_bar.find_next()
