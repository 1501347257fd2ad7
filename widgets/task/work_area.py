"""The Task itself, in Edit or Preview mode, beside (in place of) its versions."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QStackedWidget, QVBoxLayout, QWidget

from app.desk.runner import Runner
from widgets.editor.find_bar import FindBar
from widgets.editor.task_editor import TaskEditor
from widgets.preview.preview_panel import PreviewPanel
from widgets.versions.versions_panel import VersionsPanel
from widgets.window.actions import WindowActions


class TaskWorkArea(QSplitter):
    """``modes`` stacks the ``preview`` and the ``editor`` (with its ``find_bar``); the
    ``versions`` panel takes their place while View › Versions is checked. The window's
    ``commands`` (Edit, Preview, Versions) are kept checked to match."""

    def __init__(
        self, runner: Runner, commands: WindowActions, parent: QWidget | None = None
    ) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self._commands = commands
        self.editor = TaskEditor()
        self.find_bar = FindBar(self.editor)
        self.find_bar.hide()
        self.edit_page = QWidget()
        edit_layout = QVBoxLayout(self.edit_page)
        edit_layout.setContentsMargins(0, 0, 0, 0)
        edit_layout.setSpacing(0)
        edit_layout.addWidget(self.editor, 1)
        edit_layout.addWidget(self.find_bar)
        self.preview = PreviewPanel(runner=runner)
        self.modes = QStackedWidget()
        self.modes.addWidget(self.preview)
        self.modes.addWidget(self.edit_page)

        self.setChildrenCollapsible(False)
        self.addWidget(self.modes)
        self.versions = VersionsPanel()
        self.versions.mine_text = self.editor.text  # "Compare with my text"
        self.versions.hide()
        self.addWidget(self.versions)
        self.setStretchFactor(0, 1)

    def set_mode_edit(self, edit: bool) -> None:
        commands = self._commands
        if commands.versions.isChecked():
            commands.versions.setChecked(False)  # back from the versions to the text
        self.modes.setCurrentWidget(self.edit_page if edit else self.preview)
        (commands.edit if edit else commands.preview).setChecked(True)
        if edit:
            self.editor.setFocus()

    def show_versions(self, shown: bool) -> None:
        """The versions take the editor's place: comparing needs the width more than editing."""
        self.versions.setVisible(shown)
        self.modes.setVisible(not shown)
        if not shown:
            self.set_mode_edit(self._commands.edit.isChecked())

    def show_find(self) -> None:
        self.set_mode_edit(True)
        self.find_bar.show_find()
