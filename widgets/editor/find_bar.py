"""Find and replace in the Task editor: next, previous, replace, replace all, match case."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QToolButton,
)

from widgets.common.accessible_roles import announce
from widgets.common.fields import name_clear_button
from widgets.common.icons import icon
from widgets.editor.task_editor import TaskEditor


class FindBar(QFrame):
    """A bar under the editor. Ctrl+F shows Find, Ctrl+H shows Find and Replace."""

    closed = Signal()
    announced = Signal(str)  # "No matches", "Replaced 4": told to screen readers as they show

    def __init__(self, editor: QPlainTextEdit) -> None:
        super().__init__(editor.parentWidget())
        self.setObjectName("FindBar")
        self.setAccessibleName("Find and replace")
        self.editor = editor

        self.find_label = QLabel("Fi&nd")
        self.find_field = QLineEdit()
        self.find_field.setAccessibleName("Find")
        name_clear_button(self.find_field, "Clear Find")
        self.find_label.setBuddy(self.find_field)
        self.find_previous_button = QPushButton(icon("previous"), "Previou&s")
        self.find_previous_button.setAccessibleName("Previous")
        self.find_next_button = QPushButton(icon("next"), "Ne&xt")
        self.find_next_button.setAccessibleName("Next")
        self.match_case_box = QCheckBox("&Match case")
        self.match_case_box.setAccessibleName("Match case")
        self.status_label = QLabel("")
        self.status_label.setObjectName("hint")
        self.close_button = QToolButton()
        self.close_button.setIcon(icon("close"))
        self.close_button.setToolTip("Close")
        self.close_button.setAccessibleName("Close")
        for target in (self.match_case_box, self.close_button):
            target.setMinimumSize(24, 24)  # WCAG 2.5.8: targets of at least 24 × 24 px

        self.replace_label = QLabel("Re&place")
        self.replace_field = QLineEdit()
        self.replace_field.setAccessibleName("Replace")
        self.replace_label.setBuddy(self.replace_field)
        self.replace_button = QPushButton("Rep&lace")
        self.replace_button.setAccessibleName("Replace")
        self.replace_all_button = QPushButton("Replace &all")
        self.replace_all_button.setAccessibleName("Replace all")

        # Room enough whatever sits beside the editor (References open): the field keeps
        # space for a search, the outcome for "Replaced 9,999", and nothing clips "Match case".
        metrics = self.fontMetrics()
        self.find_field.setMinimumWidth(metrics.horizontalAdvance("x" * 16))
        self.replace_field.setMinimumWidth(metrics.horizontalAdvance("x" * 16))
        self.status_label.setMinimumWidth(metrics.horizontalAdvance("Replaced 9,999"))
        self.match_case_box.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.match_case_box.setMinimumWidth(self.match_case_box.sizeHint().width())

        grid = QGridLayout(self)
        grid.setContentsMargins(6, 4, 6, 4)
        grid.addWidget(self.find_label, 0, 0)
        grid.addWidget(self.find_field, 0, 1)
        grid.addWidget(self.find_previous_button, 0, 2)
        grid.addWidget(self.find_next_button, 0, 3)
        grid.addWidget(self.match_case_box, 0, 4)
        grid.addWidget(self.status_label, 0, 5)
        grid.addWidget(self.close_button, 0, 6)
        grid.addWidget(self.replace_label, 1, 0)
        grid.addWidget(self.replace_field, 1, 1)
        grid.addWidget(self.replace_button, 1, 2)
        grid.addWidget(self.replace_all_button, 1, 3)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(5, 1)

        self.find_next_button.clicked.connect(self.find_next)
        self.find_previous_button.clicked.connect(self.find_previous)
        self.replace_button.clicked.connect(self.replace)
        self.replace_all_button.clicked.connect(self.replace_all)
        self.close_button.clicked.connect(self.close_bar)
        self.find_field.textChanged.connect(lambda _text: self.status_label.clear())
        self.find_field.installEventFilter(self)
        self.replace_field.installEventFilter(self)
        if isinstance(editor, TaskEditor):
            editor.find_requested.connect(self.show_find)
            editor.replace_requested.connect(self.show_replace)
        self._set_replace_visible(False)
        self.hide()

    # ------------------------------------------------------------------ showing

    def show_find(self) -> None:
        self._open(replace=False)

    def show_replace(self) -> None:
        self._open(replace=True)

    def close_bar(self) -> None:
        self.hide()
        self.editor.setFocus()
        self.closed.emit()

    def _open(self, *, replace: bool) -> None:
        selected = self.editor.textCursor().selectedText()
        if selected and "\u2029" not in selected:  # a selection within one line seeds the search
            self.find_field.setText(selected)
        self._set_replace_visible(replace)
        self.show()
        self.find_field.setFocus()
        self.find_field.selectAll()

    def _set_replace_visible(self, visible: bool) -> None:
        for widget in (
            self.replace_label,
            self.replace_field,
            self.replace_button,
            self.replace_all_button,
        ):
            widget.setVisible(visible)

    # ------------------------------------------------------------------ finding

    def _flags(self, backward: bool = False) -> QTextDocument.FindFlag:
        flags = QTextDocument.FindFlag(0)
        if self.match_case_box.isChecked():
            flags |= QTextDocument.FindFlag.FindCaseSensitively
        if backward:
            flags |= QTextDocument.FindFlag.FindBackward
        return flags

    def find_next(self) -> bool:
        return self._find(backward=False)

    def find_previous(self) -> bool:
        return self._find(backward=True)

    def _find(self, *, backward: bool) -> bool:
        needle = self.find_field.text()
        if not needle:
            return False
        document = self.editor.document()
        flags = self._flags(backward)
        found = document.find(needle, self.editor.textCursor(), flags)
        if found.isNull():  # wrap around once
            start = QTextCursor(document)
            if backward:
                start.movePosition(QTextCursor.MoveOperation.End)
            found = document.find(needle, start, flags)
        if found.isNull():
            self._tell("No matches")
            return False
        self.status_label.clear()
        self.editor.setTextCursor(found)
        self.editor.ensureCursorVisible()
        return True

    def _selection_matches(self) -> bool:
        selected = self.editor.textCursor().selectedText()
        needle = self.find_field.text()
        if self.match_case_box.isChecked():
            return selected == needle
        return selected.casefold() == needle.casefold()

    def replace(self) -> bool:
        """Replace the current match (finding it first if needed), then move to the next."""
        if not self.find_field.text():
            return False
        if not self._selection_matches() and not self.find_next():
            return False
        cursor = self.editor.textCursor()
        cursor.insertText(self.replace_field.text())
        self.editor.setTextCursor(cursor)
        self.find_next()
        return True

    def replace_all(self) -> int:
        """Replace every match as one undo step; returns how many were replaced."""
        needle = self.find_field.text()
        if not needle:
            return 0
        document = self.editor.document()
        flags = self._flags()
        replacement = self.replace_field.text()
        count = 0
        edit = QTextCursor(document)
        edit.beginEditBlock()
        found = document.find(needle, 0, flags)
        while not found.isNull():
            found.insertText(replacement)
            count += 1
            found = document.find(needle, found, flags)
        edit.endEditBlock()
        self._tell("No matches" if count == 0 else f"Replaced {count}")
        return count

    def _tell(self, outcome: str) -> None:
        """Show the outcome beside the fields and say it to screen readers."""
        self.status_label.setText(outcome)
        announce(self.status_label)
        self.announced.emit(outcome)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Esc from any control of the bar (buttons and the check box pass it up to here).
        if event.key() == Qt.Key.Key_Escape:
            self.close_bar()
            event.accept()
            return
        super().keyPressEvent(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.KeyPress and watched in (
            self.find_field,
            self.replace_field,
        ):
            assert isinstance(event, QKeyEvent)
            key = event.key()
            if key == Qt.Key.Key_Escape:
                self.close_bar()
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                if watched is self.replace_field:
                    self.replace()
                elif event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                    self.find_previous()
                else:
                    self.find_next()
                return True
        return super().eventFilter(watched, event)
