"""The Task itself, in Edit or Preview mode, beside (in place of) its versions."""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QStackedWidget, QVBoxLayout, QWidget

from app.connect.remembered import remember_side_by_side, side_by_side_remembered
from app.desk.runner import Runner
from widgets.common.built_in_parts import Parts, parts_of
from widgets.editor.find_bar import FindBar
from widgets.editor.task_editor import TaskEditor
from widgets.preview.preview_panel import PreviewPanel
from widgets.task.side_by_side import EDITOR_MIN_WIDTH, SideBySidePage
from widgets.versions.versions_panel import VersionsPanel
from widgets.window.actions import WindowActions

log = logging.getLogger(__name__)


class TaskWorkArea(QSplitter):
    """``modes`` stacks the ``preview`` and the ``editor`` (with its ``find_bar``); the
    ``versions`` panel takes their place while View › Versions is checked. The window's
    ``commands`` (Edit, Preview, Versions) are kept checked to match."""

    def __init__(
        self,
        runner: Runner,
        commands: WindowActions,
        parent: QWidget | None = None,
        *,
        staged: bool = False,
    ) -> None:
        """``staged``: nothing yet; ``parts`` builds the editor and the preview, then the rest
        (the Task tab builds itself, this among it, a part at a time)."""
        super().__init__(Qt.Orientation.Horizontal, parent)
        self._commands = commands
        self._runner = runner
        self._remembered = False
        self.parts = parts_of(self._build(runner, commands), staged=staged)

    def _build(self, runner: Runner, commands: WindowActions) -> Parts:
        """The editor and the preview, then the rest."""
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
        yield ()

        # The hidden versions panel, Side by side and the commands' wiring.
        self.versions = VersionsPanel()
        self.versions.mine_text = self.editor.text  # "Compare with my text"
        self.versions.hide()
        self.addWidget(self.versions)
        self.setStretchFactor(0, 1)
        commands.editing.bind(self.editor, self.find_bar, lambda: self.set_mode_edit(True))
        self.side_by_side = SideBySidePage(
            self.modes, self.edit_page, self.preview, self.editor, self.preview.pane
        )
        self.modes.addWidget(self.side_by_side)
        commands.side_by_side.triggered.connect(self._on_side_by_side_chosen)
        commands.preview.triggered.connect(self._on_preview_chosen)  # before the switch
        commands.edit.triggered.connect(self._forget_side_by_side)
        runner.submit(side_by_side_remembered, on_done=self._on_remembered, lane="disk")

    def set_mode_edit(self, edit: bool) -> None:
        """Edit (the editor) or Preview; Edit keeps Side by side, where the editor shows."""
        commands = self._commands
        if commands.versions.isChecked():
            commands.versions.setChecked(False)  # back from the versions to the text
        if edit and commands.side_by_side.isChecked():
            self.show_side_by_side()
            return
        self.side_by_side.give_back()
        editor_focused = self.editor.hasFocus()
        self.modes.setCurrentWidget(self.edit_page if edit else self.preview)
        (commands.edit if edit else commands.preview).setChecked(True)
        if edit:
            self.editor.setFocus()
        elif editor_focused:
            self.preview.pane.setFocus()  # the keys (Page Down, Ctrl+End) go on reading

    def show_opening_mode(self) -> None:
        """An agent opens in Preview, or Side by side while that is chosen."""
        self.set_mode_edit(self._commands.side_by_side.isChecked())

    def show_side_by_side(self) -> None:
        commands = self._commands
        if commands.versions.isChecked():
            commands.versions.setChecked(False)
        self.side_by_side.take()
        self.share_with_panel()
        commands.side_by_side.setChecked(True)
        self.editor.setFocus()

    def _on_side_by_side_chosen(self) -> None:
        self.show_side_by_side()
        self._remember(True)

    def _on_preview_chosen(self) -> None:
        """Edit → Preview shows the part of the Task the editor showed, not the top (by
        proportion, as Side by side follows the editor)."""
        if self.modes.currentWidget() is self.edit_page and self.editor.isVisible():
            bar = self.editor.verticalScrollBar()
            fraction = bar.value() / bar.maximum() if bar.maximum() > 0 else 0.0
            self.preview.pane.scroll_to_fraction(fraction)
        self._forget_side_by_side()

    def _forget_side_by_side(self) -> None:
        self._remember(False)

    def _remember(self, on: bool) -> None:
        if on == self._remembered:
            return
        self._remembered = on
        self._runner.submit(
            lambda: remember_side_by_side(on),
            on_done=lambda _: None,
            on_error=lambda exc: log.warning("could not remember the view: %s", exc),
            lane="disk",
        )

    def _on_remembered(self, on: bool) -> None:
        self._remembered = on
        if on and not self._commands.side_by_side.isChecked():
            self._commands.side_by_side.setChecked(True)
            if self.modes.currentWidget() is self.preview and self.modes.isVisible():
                self.show_side_by_side()

    def share_with_panel(self, wanted: int | None = None) -> None:
        """Give a shown side panel (References, Runs, Shape: the widget after the versions)
        ``wanted`` px, or keep its width, short of leaving the editor under
        EDITOR_MIN_WIDTH (both sides of Side by side at that width): the panel goes down
        to its minimum first."""
        panel = self.widget(self.count() - 1) if self.count() >= 3 else None
        if panel is None or panel.isHidden() or self.modes.isHidden():
            return  # no panel, or the versions in the text's place: they have their own room
        sizes = self.sizes()
        total = sizes[0] + sizes[-1]
        if self.side_by_side.is_shown():
            text_needs = 2 * EDITOR_MIN_WIDTH + self.side_by_side.handleWidth()
        else:
            text_needs = EDITOR_MIN_WIDTH
        width = sizes[-1] if wanted is None else wanted
        width = max(panel.minimumWidth(), min(width, total - text_needs))
        sizes[0], sizes[-1] = max(1, total - width), width
        self.setSizes(sizes)

    def show_versions(self, shown: bool) -> None:
        """The versions take the editor's place: comparing needs the width more than editing."""
        self.versions.setVisible(shown)
        self.modes.setVisible(not shown)
        if shown:
            self.versions.list_view.setFocus(Qt.FocusReason.ShortcutFocusReason)
        else:
            self.set_mode_edit(
                self._commands.edit.isChecked() or self._commands.side_by_side.isChecked()
            )
            self.focus_target().setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_target(self) -> QWidget:
        """Where the operator works now: the version list, the editor or the preview."""
        if self.versions.isVisible():
            return self.versions.list_view
        if self.modes.currentWidget() in (self.edit_page, self.side_by_side):
            return self.editor
        return self.preview.stack.currentWidget() or self.preview

    def show_find(self) -> None:
        self.set_mode_edit(True)
        self.find_bar.show_find()
