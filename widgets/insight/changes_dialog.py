"""What changed for the agent between two expansions, each change marked with its source."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.core.expansion_changes import ChangedBlock, ChangeSource, ExpansionChanges
from app.core.wording import counted, sentence
from widgets.versions.diff_view import DiffView


def _versions(source: ChangeSource) -> str:
    old = f"v{source.old_version}" if source.old_version is not None else "absent"
    new = f"v{source.new_version}" if source.new_version is not None else "absent"
    return f"{old} → {new}"


def source_text(source: ChangeSource, task_changed: bool = True) -> str:
    """``the Task (v3 → v4)``; ``note org/…/style.md (v1 → v2)``; an unchanged Task whose
    text shows a change is an embed there resolving differently."""
    if source.kind == "note":
        return f"note {source.path} ({_versions(source)})"
    if task_changed:
        return f"the Task ({_versions(source)})"
    return (
        f"the Task's embeds (the Task is unchanged, v{source.new_version}: an embed "
        "resolves differently)"
    )


def block_text(block: ChangedBlock, task_changed: bool) -> str:
    chunk = block.chunk
    first, last = chunk.new_start + 1, chunk.new_end
    lines = f"line {first}" if last <= first else f"lines {first}–{last}"
    if chunk.new_end == chunk.new_start:
        lines = f"removed after line {chunk.new_start}"
    froms = "; ".join(source_text(s, task_changed) for s in block.sources)
    return f"{lines}: from {froms}"


def changes_headline(changes: ExpansionChanges) -> str:
    notes = changes.changed_notes
    parts = []
    if changes.task.changed:
        parts.append(f"the Task changed ({_versions(changes.task)})")
    else:
        parts.append(f"the Task is unchanged (v{changes.task.new_version})")
    if notes:
        parts.append(
            f"{len(notes)} note{'s' * (len(notes) != 1)} changed: "
            + ", ".join(f"{n.path} ({_versions(n)})" for n in notes)
        )
    gone = [n.path for n in changes.notes if n.old_version is not None and n.new_version is None]
    if gone:
        parts.append(
            f"{counted(len(gone), 'note')} the older side inlined no longer "
            f"{'reaches' if len(gone) == 1 else 'reach'} the agent (deleted, moved or unreadable "
            f"now): {', '.join(gone)}"
        )
    count = len(changes.blocks)
    parts.append(f"{count} change{'s' * (count != 1)} in what the agent gets")
    return sentence("; ".join(parts)) + "."


class ChangesDialog(QDialog):
    """The compare view of two expanded Tasks (``diff``), and beside it each change with
    where it comes from (``blocks``): the Task, or a note with its path and versions.
    Choosing a change moves the compare view to it."""

    def __init__(
        self,
        changes: ExpansionChanges,
        old_text: str,
        new_text: str,
        titles: tuple[str, str],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("What changed for the agent")
        self.setObjectName("ChangesDialog")
        self.resize(1100, 700)
        self.changes = changes
        self.headline = QLabel(changes_headline(changes))
        self.headline.setTextFormat(Qt.TextFormat.PlainText)
        self.headline.setWordWrap(True)
        self.blocks = QListWidget()
        self.blocks.setAccessibleName("Changes and where they come from")
        self.blocks.setWordWrap(True)
        self.blocks.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        for index, block in enumerate(changes.blocks):
            item = QListWidgetItem(block_text(block, changes.task.changed))
            item.setData(Qt.ItemDataRole.UserRole, index)
            kinds = {s.kind for s in block.sources}
            item.setToolTip("From a note" if kinds == {"note"} else "From the Task")
            self.blocks.addItem(item)
        self.diff = DiffView()
        self.diff.set_model(changes.diff, old_text, new_text, *titles)
        self.blocks.currentRowChanged.connect(self.diff.go_to_change)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.blocks)
        splitter.addWidget(self.diff)
        splitter.setSizes([300, 800])
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.headline)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.buttons)

    def block_texts(self) -> list[str]:
        return [self.blocks.item(i).text() for i in range(self.blocks.count())]
