"""A run's System view: the Task exactly as the run got it, embeds inlined, and its source."""

from __future__ import annotations

from PySide6.QtCore import QElapsedTimer, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontDatabase, QTextCursor
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.wording import counted
from app.desk.run_controller import RunInfo


def source_headline(run: RunInfo, gone: tuple[str, ...] = ()) -> str:
    source = run.task_source
    notes = len(source.notes)
    line = (
        f"Run {run.id}: Task v{source.version} ({source.display_path}), "
        f"{counted(notes, 'note')} inlined, {counted(len(source.collections), 'collection')}. "
        "The text below is the <task> section of the run's system prompt, as stored."
    )
    if gone:
        line += (
            f" {len(gone)} of the notes it inlined no longer exist or can't be read now "
            f"({', '.join(gone)}); the run keeps their text as it was."
        )
    return line


FIRST_SLICE = 4_096  # characters shown at once: the top of the text, with the dialog
SLICE_MS = 2  # then the rest in slices of about this long, between events


class SystemViewDialog(QDialog):
    """``text`` shows the run's ``<task>`` section byte for byte (read from the run, never
    recomputed); ``source`` lists its ``task_source``: the Task's version and hash, each
    inlined note with its version and hash, and the collections.

    A 256 KB text laid out at once would hold the GUI thread for tens of milliseconds, so
    it is put in slices of a few milliseconds between events; ``filled`` fires after the
    last one.
    """

    filled = Signal()

    def __init__(
        self, run: RunInfo, gone: tuple[str, ...] = (), parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"System view — {run.id}")
        self.setObjectName("SystemViewDialog")
        self.resize(900, 640)
        self.run = run
        self.gone = gone
        self.headline = QLabel(source_headline(run, gone))
        self.headline.setTextFormat(Qt.TextFormat.PlainText)
        self.headline.setWordWrap(True)
        self.source = QTreeWidget()
        self.source.setAccessibleName("Task source")
        self.source.setHeaderLabels(["What", "Version", "sha256"])
        self.source.setRootIsDecorated(False)
        task = run.task_source
        rows = [("Task " + task.display_path, f"v{task.version}", task.hash)]
        rows += [(n.display_path, f"v{n.version}", n.content_hash) for n in task.notes]
        rows += [(c + " (collection)", "", "") for c in task.collections]
        for what, version, digest in rows:
            if what in gone:
                what += " (gone now)"
            self.source.addTopLevelItem(QTreeWidgetItem([what, version, digest[:16]]))
        self.source.resizeColumnToContents(0)
        self.text = QPlainTextEdit()
        self.text.setAccessibleName("The Task as the run got it")
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.text.setFont(font)
        self.text.document().setUndoRedoEnabled(False)
        self._rest = run.task_text
        self._at = 0
        self._feeder = QTimer(self)
        self._feeder.setInterval(0)
        self._feeder.timeout.connect(self._feed)
        self._put(FIRST_SLICE)
        if self._at < len(self._rest):
            self._feeder.start()
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.source)
        splitter.addWidget(self.text)
        splitter.setSizes([150, 470])
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.headline)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.buttons)

    @property
    def is_filled(self) -> bool:
        return self._at >= len(self._rest)

    def _put(self, size: int) -> None:
        """Append the next ``size`` characters or so, ending after a line break."""
        text, at = self._rest, self._at
        end = min(len(text), at + size)
        if end < len(text):
            cut = text.rfind("\n", at, end)
            end = cut + 1 if cut > at else end
        cursor = QTextCursor(self.text.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(text[at:end])
        self._at = end

    def _feed(self) -> None:
        clock = QElapsedTimer()
        clock.start()
        size = 1_024
        while not self.is_filled and clock.elapsed() < SLICE_MS:
            self._put(size)
        if self.is_filled:
            self._feeder.stop()
            self.filled.emit()

    def shown_text(self) -> str:
        return self.text.toPlainText()
