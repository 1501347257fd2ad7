"""The References view: every embed and named file a run meets, by hop, with why."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import QHeaderView, QLabel, QTreeView, QVBoxLayout, QWidget

from app.core.reference_words import summary_of
from app.core.references import References
from widgets.common.plain_text import inert_tooltip
from widgets.insight.reference_tree_model import ReferenceTreeModel, explanation


class ReferencesView(QWidget):
    """A tree by hop (Task → its embeds → each inlined note's), a summary above it and the
    selected reference's whole story below.

    Activating a reference in the Task asks to jump to it (``jump_requested(line, column)``);
    one inside a note asks to open that note's preview (``note_requested(path)``).
    """

    jump_requested = Signal(int, int)
    note_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ReferencesView")
        self.summary_label = QLabel("References show once the Task is previewed.")
        self.notice_label = QLabel("")
        self.detail_label = QLabel("")
        for label in (self.summary_label, self.notice_label, self.detail_label):
            label.setTextFormat(Qt.TextFormat.PlainText)  # paths and titles come from notes
            label.setWordWrap(True)
        self.notice_label.setObjectName("hint")
        self.notice_label.hide()
        self.model = ReferenceTreeModel(self)
        self.tree = QTreeView()
        self.tree.setAccessibleName("References")
        self.tree.setModel(self.model)
        self.tree.setUniformRowHeights(True)
        self.tree.setIndentation(14)
        self.tree.setAlternatingRowColors(True)
        header = self.tree.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.setColumnWidth(0, 230)
        self.tree.selectionModel().currentChanged.connect(self.on_current_changed)
        self.tree.activated.connect(self.on_activated)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.notice_label)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.detail_label)
        self.references: References | None = None

    def set_references(self, references: References, notice: str = "") -> None:
        self.references = references
        self.model.set_references(references)
        self.tree.expandAll()
        self.summary_label.setText(summary_of(references))
        self.notice_label.setText(notice)
        self.notice_label.setVisible(bool(notice))
        self.detail_label.setText("")

    def on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        item = self.model.reference(current)
        text = explanation(item) if item is not None else ""
        self.detail_label.setText(text)
        # A path has no space to wrap at: a long one runs past the label's edge, cut. The
        # tooltip has it whole, with the reference's own path, as the tree's row has.
        tip = f"{item.path}\n{text}" if item is not None else ""
        self.detail_label.setToolTip(inert_tooltip(tip) if tip else "")

    def on_activated(self, index: QModelIndex) -> None:
        item = self.model.reference(index)
        if item is None:
            return
        if item.hop == 1:
            self.jump_requested.emit(item.position.line, item.position.column)
        else:
            self.note_requested.emit(item.in_path)
