"""The Version picker: every version of the Task, shown as Text, Compared with live or with
my unsaved text; two rows picked together (Ctrl-click) are compared with each other."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelection, QItemSelectionModel, QMetaMethod, Qt, Signal
from PySide6.QtGui import QFontDatabase, QShowEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QLabel,
    QListView,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.models import TaskDoc
from widgets.common.icons import icon
from widgets.common.segments import SegmentButton
from widgets.common.two_line_delegate import two_line_list
from widgets.versions.revision_model import (
    DETAIL_ROLE,
    TITLE_ROLE,
    Clock,
    RevisionModel,
    RevisionRow,
)

if TYPE_CHECKING:  # the comparison is built when first shown (see ``diff_view``)
    from app.core.diff_model import SideBySide
    from widgets.versions.diff_view import DiffView

NO_EARLIER = "No earlier versions yet. Every save keeps the text it replaces."
TYPICAL_DETAIL = "replaced 28 Sep 2026 by Morgan"
"""A long-ish second line: the list is made wide enough for it, longer ones are elided."""


class VersionsPanel(QWidget):
    """Lists the versions and shows the selected one; asks, never restores by itself.

    ``restore_requested(version)`` when Restore vN is pressed. ``compare_requested(version,
    old_text, live_text)`` when a comparison is needed: a window that connects it builds the
    diff model off the GUI thread and hands it back with ``show_compare_model``; unconnected,
    the panel gives the texts to the diff view itself.
    """

    restore_requested = Signal(int)
    compare_requested = Signal(int, str, str)
    take_change_requested = Signal(int, int)  # (version, change number): restore by change
    # Any other pair (two versions, a version and my text): old, new, and their titles. A
    # window that connects it diffs off the GUI thread and calls ``show_pair_model``.
    pair_requested = Signal(str, str, str, str)

    def __init__(self, parent: QWidget | None = None, *, clock: Clock | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("VersionsPanel")
        self.model = RevisionModel(self, clock=clock)

        self.list_view, self.delegate = two_line_list(
            self.model, "Versions", (TITLE_ROLE, DETAIL_ROLE), ("v50 (live)", TYPICAL_DETAIL)
        )
        self.empty_label = QLabel(NO_EARLIER)
        self.empty_label.setObjectName("hint")
        self.empty_label.setWordWrap(True)
        self.empty_label.setAccessibleName(NO_EARLIER)

        self.text_button = SegmentButton()
        self.text_button.setText("&Text")
        self.compare_button = SegmentButton()
        self.compare_button.setText("Compare with &live")
        self.mine_button = SegmentButton()
        self.mine_button.setText("Compare with m&y text")
        self.mode_group = QButtonGroup(self)
        for button in (self.text_button, self.compare_button, self.mine_button):
            button.setCheckable(True)
            button.setObjectName("segment")
            button.setAccessibleName(button.text().replace("&", ""))
            self.mode_group.addButton(button)
        self.text_button.setChecked(True)
        self.restore_button = QPushButton(icon("restore"), "Re&store")
        self.restore_button.setAccessibleName("Restore")
        self.restore_button.setEnabled(False)

        self.text_view = QPlainTextEdit()
        self.text_view.setReadOnly(True)
        self.text_view.setAccessibleName("Version text")
        self.text_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self._diff_view: DiffView | None = None
        self.stack = QStackedWidget()
        self.stack.addWidget(self.text_view)

        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.list_view, 1)
        left_layout.addWidget(self.empty_label)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        bar.setSpacing(0)
        bar.addWidget(self.text_button)
        bar.addWidget(self.compare_button)
        bar.addWidget(self.mine_button)
        bar.addStretch(1)
        bar.addWidget(self.restore_button)
        right_layout.addLayout(bar)
        right_layout.addWidget(self.stack, 1)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setChildrenCollapsible(False)
        splitter.setStretchFactor(0, 0)  # extra width goes to the text, not the list
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([self.list_view.minimumWidth(), 10_000])
        self.splitter = splitter
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)

        self._compared_version: int | None = None
        self._can_restore = True  # False for someone who may read Tasks but not change them
        self._agent_id: str | None = None
        self.mine_text: Callable[[], str] = lambda: ""  # the editor's text, set by the tab
        self._pair: tuple[str, str] | None = None  # titles of the pair asked for last
        self._show_when_shown = False  # the selection changed while the panel was hidden
        # The selection is the opening default (the newest earlier version), not one the
        # operator picked: a newer Task (a save, the server's copy after the cached one)
        # moves it to the new newest earlier version instead of keeping an older one.
        self._selection_is_default = True
        self._selecting_default = False
        # Ctrl-click (Shift-click) picks a second version to compare the two.
        self.list_view.setSelectionMode(QListView.SelectionMode.ExtendedSelection)
        self.list_view.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.text_button.toggled.connect(lambda _on: self._show_selected())
        self.mine_button.toggled.connect(lambda on: self._show_selected() if on else None)
        self.restore_button.clicked.connect(self.on_restore_clicked)
        self._update_controls(None)

    # ------------------------------------------------------------------ feeding

    def set_task(self, doc: TaskDoc) -> None:
        """Show ``doc``'s versions; the selection stays on the same version when it still exists."""
        same_agent = doc.agent_id == self._agent_id
        self._agent_id = doc.agent_id
        kept = same_agent and not self._selection_is_default
        previous = self.selected() if kept else None
        self.model.set_task(doc)
        self.empty_label.setVisible(len(doc.revisions) == 0)
        row = self.model.row_of_version(previous.version) if previous else None
        if row is not None:
            self.select_row(row)
            return
        # Opening: the newest earlier version, the one an operator most often wants.
        self._selecting_default = True
        try:
            self.select_row(min(1, self.model.rowCount() - 1))
        finally:
            self._selecting_default = False
        self._selection_is_default = True

    def set_can_restore(self, allowed: bool) -> None:
        """Whether Restore is offered at all (reading and comparing always are)."""
        self._can_restore = allowed
        self._update_controls(self.selected())

    def refresh_times(self, now: datetime | None = None) -> None:
        self.model.refresh_times()

    def select_row(self, row: int) -> None:
        index = self.model.index(row, 0)
        if index.isValid():
            # That row alone, whatever modifier keys are down (Ctrl would add it to a pair).
            flag = QItemSelectionModel.SelectionFlag
            self.list_view.selectionModel().setCurrentIndex(index, flag.ClearAndSelect)
        else:
            self._show_selected()

    def select_version(self, version: int) -> None:
        row = self.model.row_of_version(version)
        if row is not None:
            self.select_row(row)

    def selected(self) -> RevisionRow | None:
        index = self.list_view.currentIndex()
        return self.model.row_at(index.row()) if index.isValid() else None

    @property
    def diff_view(self) -> DiffView:
        """The comparison, built the first time it is needed: every Task tab has this panel,
        hidden until View › Versions, and building the comparison (its canvas, reader and
        fold bar, ~17 ms, and their modules) held the first Task's way to the screen."""
        if self._diff_view is None:
            from widgets.versions.diff_view import DiffView

            view = DiffView()
            view.setAccessibleName("Compare with live")
            view.take_requested.connect(self._on_take_requested)
            self.stack.addWidget(view)
            self._diff_view = view
        return self._diff_view

    def picked(self) -> list[RevisionRow]:
        """The rows selected together, oldest first (one or none unless Ctrl-clicked)."""
        rows = [self.model.row_at(i.row()) for i in self.list_view.selectionModel().selectedRows()]
        return sorted((r for r in rows if r is not None), key=lambda r: r.version)

    def show_pair_model(
        self, model: SideBySide, old: str, new: str, old_title: str, new_title: str
    ) -> None:
        """A diff built off the GUI thread for ``pair_requested``; dropped when stale."""
        shown = self.stack.currentWidget()
        if self._pair != (old_title, new_title) or shown is None or shown is not self._diff_view:
            return
        self.diff_view.set_model(model, old, new, old_title, new_title)
        self.diff_view.offer_take(None)

    def show_compare_model(self, version: int, model: SideBySide) -> None:
        """A diff model built off the GUI thread (``build_diff(old, live)``) for ``version``."""
        selected = self.selected()
        live = self.model.live()
        if (
            selected is None
            or live is None
            or selected.version != version
            or not self.compare_button.isChecked()
        ):
            return  # the operator has moved on
        self.diff_view.set_model(
            model, selected.content, live.content, f"v{version}", f"v{live.version} (live)"
        )
        self.diff_view.offer_take(f"Take this change from v{version}")

    # ------------------------------------------------------------------ slots

    def on_restore_clicked(self) -> None:
        selected = self.selected()
        if selected is not None and not selected.live:
            self.restore_requested.emit(selected.version)

    def _on_take_requested(self, change: int) -> None:
        selected = self.selected()
        if selected is not None and not selected.live:
            self.take_change_requested.emit(selected.version, change)

    def _on_selection_changed(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        if not self._selecting_default:
            self._selection_is_default = False  # picked: a newer Task keeps it
        self._show_selected()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._show_when_shown:
            self._show_when_shown = False
            self._show_selected()

    def _show_selected(self) -> None:
        selected = self.selected()
        self._update_controls(selected)
        self._pair = None
        if self.parentWidget() is not None and self.isHidden():
            # In the window while View › Versions is off (every Task opened): the text or the
            # comparison waits until the panel is shown, not a diff per Task opened.
            self._show_when_shown = True
            return
        if selected is None:
            self.text_view.clear()
            return
        picked = self.picked()
        if len(picked) >= 2:
            older, newer = picked[0], picked[-1]
            self._compare_pair(older.content, newer.content, older.title(), newer.title())
            return
        if self.mine_button.isChecked():
            self._compare_pair(
                selected.content, self.mine_text(), selected.title(), "My text (unsaved)"
            )
            return
        if selected.live or self.text_button.isChecked():
            self.stack.setCurrentWidget(self.text_view)
            if self.text_view.toPlainText() != selected.content:
                self.text_view.setPlainText(selected.content)
            return
        self.stack.setCurrentWidget(self.diff_view)
        live = self.model.live()
        if live is None:
            return
        if self.isSignalConnected(QMetaMethod.fromSignal(self.compare_requested)):
            self.compare_requested.emit(selected.version, selected.content, live.content)
        else:
            self.diff_view.set_texts(
                selected.content, live.content, f"v{selected.version}", f"v{live.version} (live)"
            )
            self.diff_view.offer_take(f"Take this change from v{selected.version}")

    def _compare_pair(self, old: str, new: str, old_title: str, new_title: str) -> None:
        self.stack.setCurrentWidget(self.diff_view)
        self._pair = (old_title, new_title)
        if self.isSignalConnected(QMetaMethod.fromSignal(self.pair_requested)):
            self.pair_requested.emit(old, new, old_title, new_title)
        else:
            self.diff_view.set_texts(old, new, old_title, new_title)
            self.diff_view.offer_take(None)

    def _update_controls(self, selected: RevisionRow | None) -> None:
        one = len(self.picked()) < 2
        earlier = selected is not None and not selected.live and one
        self.compare_button.setEnabled(earlier)
        self.mine_button.setEnabled(selected is not None and one)
        live = self.model.live()
        same_as_live = earlier and live is not None and selected is not None
        same_as_live = same_as_live and selected.content == live.content  # type: ignore[union-attr]
        self.restore_button.setEnabled(earlier and self._can_restore and not same_as_live)
        self.restore_button.setToolTip(
            "This version's text is the same as the live Task's: nothing to restore."
            if same_as_live
            else ""
        )
        text = f"Restore v{selected.version}" if earlier and selected else "Restore"
        self.restore_button.setText(text.replace("Restore", "Re&store"))
        self.restore_button.setAccessibleName(text)
        if not earlier and self.compare_button.isChecked() and one:
            self.text_button.setChecked(True)
