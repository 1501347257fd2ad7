"""The one compare view: two texts side by side, made for prose.

Long lines wrap with both sides' rows kept level; line numbers; connectors between the sides
link each change on the left to its place on the right (after Meld); unchanged runs fold to
an "N unchanged lines" row that opens on click; changed words are marked inside changed
lines; −/+ markers and change bars say what changed without relying on colour; Alt+Down and
Alt+Up move between changes. F7 and Shift+F7 move too and read each change aloud, in a
table of changed lines a screen reader can walk (``DiffReader``). Drawing is lazy (see
``CompareCanvas``), so showing two 256 KB texts never holds the GUI thread for long.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from app.core.diff_model import SideBySide, build_diff
from app.core.diff_reading import change_sentence
from widgets.common.accessible_roles import announce
from widgets.common.folding_bar import FoldingBar
from widgets.common.icons import IconName, icon
from widgets.versions.compare_canvas import CompareCanvas
from widgets.versions.compare_paint import FILLER, NEW_LINE, NEW_WORD, OLD_LINE, OLD_WORD
from widgets.versions.diff_reader import DiffReader

__all__ = ["FILLER", "NEW_LINE", "NEW_WORD", "OLD_LINE", "OLD_WORD", "DiffView"]

NEXT_KEYS = QKeySequence("Alt+Down")
PREVIOUS_KEYS = QKeySequence("Alt+Up")
READ_NEXT_KEYS = QKeySequence("F7")
READ_PREVIOUS_KEYS = QKeySequence("Shift+F7")


def change_count_text(count: int, current: int = -1) -> str:
    """ "3 changes", or "2 of 3 changes" once the operator has moved to one."""
    if count == 0:
        return "No changes"
    if current >= 0:
        return f"{current + 1} of {count} changes" if count > 1 else "1 of 1 change"
    return "1 change" if count == 1 else f"{count} changes"


class DiffView(QWidget):
    """Old text on the left, new on the right, with navigation and folding above them."""

    current_change_changed = Signal(int)
    take_requested = Signal(int)  # "take this change" pressed, for change number n
    change_announced = Signal(str)  # the sentence screen readers were just told

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._old = ""
        self._new = ""
        self.old_title = QLabel("Theirs")
        self.new_title = QLabel("Mine")
        for title in (self.old_title, self.new_title):
            title.setTextFormat(Qt.TextFormat.PlainText)  # version names come from a server
        self.count_label = QLabel(change_count_text(0))
        self.previous_button = self._button("Previous change", "change_previous", PREVIOUS_KEYS)
        self.next_button = self._button("Next change", "change_next", NEXT_KEYS)
        self.fold_button = self._button("Show unchanged lines", "unfold")
        self.fold_button.setCheckable(True)
        # Restore by change: shown only where a compare offers it (Versions › Compare).
        self.take_button = self._button("Take this change", "take")
        self.take_button.hide()
        self.take_button.clicked.connect(self.on_take_clicked)
        self.read_button = self._button("Read changes", "read_aloud", READ_NEXT_KEYS)
        self.read_button.setCheckable(True)
        self.read_button.toggled.connect(self.on_read_toggled)
        self.canvas = CompareCanvas()
        self.canvas.setAccessibleName("Compare")
        self.reader = DiffReader()
        self.reader.hide()
        self.reader.activated.connect(self.on_reader_activated)
        self.previous_button.clicked.connect(self.on_previous_clicked)
        self.next_button.clicked.connect(self.on_next_clicked)
        self.fold_button.toggled.connect(self.on_fold_toggled)
        self.canvas.change_clicked.connect(self.on_change_clicked)
        controls = (
            self.previous_button,
            self.next_button,
            self.take_button,
            self.fold_button,
            self.read_button,
        )
        for control in (*controls, self.canvas, self.reader):
            control.installEventFilter(self)

        # The buttons drop their names (kept in tooltips) when the compare is narrow: the
        # arrows first (together), "Take this change" last.
        self.bar = FoldingBar()
        self.bar.row.addWidget(self.count_label)
        self.bar.row.addStretch(1)
        self.bar.add_folding(self.previous_button, 0)
        self.bar.add_folding(self.next_button, 1, with_=self.previous_button)
        self.bar.add_folding(self.fold_button)
        self.bar.add_folding(self.read_button, 4)
        self.bar.add_folding(self.take_button, 4)
        titles = QHBoxLayout()
        titles.addWidget(self.old_title, 1)
        titles.addWidget(self.new_title, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.bar)
        layout.addLayout(titles)
        layout.addWidget(self.canvas, 1)
        layout.addWidget(self.reader, 1)
        self._update_controls()

    def _button(self, label: str, name: IconName, keys: QKeySequence | None = None) -> QToolButton:
        button = QToolButton()
        button.setText(label)
        shortcut = f" ({keys.toString(QKeySequence.SequenceFormat.NativeText)})" if keys else ""
        button.setToolTip(label + shortcut)
        button.setAccessibleName(label)
        button.setIcon(icon(name))
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        return button

    # ---------------------------------------------------------------- feeding

    @property
    def model(self) -> SideBySide:
        return self.canvas.plan.model

    @property
    def old_text(self) -> str:
        """The text shown on the left, exactly as given."""
        return self._old

    @property
    def new_text(self) -> str:
        return self._new

    @property
    def current_change_index(self) -> int:
        """Index into ``model.changes`` of the change last moved to; -1 before any."""
        return self.canvas.current_change

    def set_titles(self, old_title: str, new_title: str) -> None:
        self.old_title.setText(old_title)
        self.new_title.setText(new_title)
        self._update_controls()

    def set_texts(
        self, old: str, new: str, old_title: str | None = None, new_title: str | None = None
    ) -> None:
        """Diff and show two texts. Builds the model here: for large texts build it off the
        GUI thread with ``build_diff`` and call ``set_model``."""
        self.set_model(build_diff(old, new), old, new, old_title, new_title)

    def set_model(
        self,
        model: SideBySide,
        old: str,
        new: str,
        old_title: str | None = None,
        new_title: str | None = None,
    ) -> None:
        """Show a model built from ``old`` and ``new``: no diffing happens here, and only the
        rows on screen are laid out."""
        if old_title is not None or new_title is not None:
            self.set_titles(old_title or self.old_title.text(), new_title or self.new_title.text())
        self._old, self._new = old, new
        self.canvas.set_model(model, old, new)
        self.reader.set_compare(model, old, new)
        self._update_controls()

    # ---------------------------------------------------------------- navigation

    def go_to_change(self, index: int) -> None:
        """Make change ``index`` current and bring it into view on both sides."""
        if not 0 <= index < self.model.change_count:
            return
        self.canvas.go_to_change(index)
        self._update_controls()
        self.current_change_changed.emit(index)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # A filter on the view's own controls rather than a QShortcut: the keys work from
        # whichever of them has focus (a button would take Alt+Down to move focus), and a
        # window-wide shortcut elsewhere can't clash with them.
        step = _alt_arrow_step(event)
        if step:
            self.go_to_change(self.current_change_index + step)
            return True
        step = _read_step(event)
        if step:
            self.read_change(self.current_change_index + step)
            return True
        return super().eventFilter(watched, event)

    def read_change(self, index: int) -> None:
        """Move to change ``index`` in the table of changed lines, focus it, and say what the
        change does (F7 / Shift+F7). Past either end it says so and stays."""
        count = self.model.change_count
        if not self.reader.isVisible():
            self.read_button.setChecked(True)
        if count == 0:
            self._say("No changes")
            return
        if not 0 <= index < count:
            edge = "last" if index >= count else "first"
            self._say(f"No more changes: this is the {edge} of {count}")
            return
        self.go_to_change(index)
        self.reader.show_change(index)
        self.reader.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self._say(change_sentence(self.model, index))

    def _say(self, sentence: str) -> None:
        self.count_label.setAccessibleName(sentence)
        announce(self.count_label)
        self.change_announced.emit(sentence)

    def on_read_toggled(self, reading: bool) -> None:
        self.reader.setVisible(reading)
        if reading:
            index = max(self.current_change_index, 0)
            if self.model.change_count:
                self.reader.show_change(index)

    def on_reader_activated(self) -> None:
        """Return on a row moves the compare to that row's change."""
        change = self.reader.current_change()
        if change >= 0:
            self.go_to_change(change)

    def on_next_clicked(self) -> None:
        self.go_to_change(self.current_change_index + 1)

    def on_previous_clicked(self) -> None:
        self.go_to_change(self.current_change_index - 1)

    def offer_take(self, label: str | None) -> None:
        """Show "take this change" as ``label`` ("Take this change from v3"), or hide it."""
        self.take_button.setVisible(label is not None)
        if label is not None:
            self.take_button.setText(label)
            self.take_button.setAccessibleName(label)
            self.take_button.setToolTip(label + " into the editor, as an unsaved edit")
        self._update_controls()

    def on_take_clicked(self) -> None:
        if 0 <= self.current_change_index < self.model.change_count:
            self.take_requested.emit(self.current_change_index)

    def on_change_clicked(self, index: int) -> None:
        self._update_controls()
        self.current_change_changed.emit(index)

    def on_fold_toggled(self, show_unchanged: bool) -> None:
        self.canvas.set_folding(not show_unchanged)

    def _update_controls(self) -> None:
        count, current = self.model.change_count, self.current_change_index
        self.next_button.setEnabled(current + 1 < count)
        self.previous_button.setEnabled(current > 0)
        self.take_button.setEnabled(0 <= current < count)
        self.count_label.setText(change_count_text(count, current))
        # Named after the titles the operator sees above the two sides.
        self.canvas.setAccessibleName(
            f"Compare {self.old_title.text()} with {self.new_title.text()}"
        )
        self.canvas.setAccessibleDescription(
            f"{self.old_title.text()} on the left, {self.new_title.text()} on the right: "
            + change_count_text(count, current)
        )


def _read_step(event: QEvent) -> int:
    """+1 for F7, -1 for Shift+F7, 0 for any other event."""
    if not isinstance(event, QKeyEvent) or event.type() != QEvent.Type.KeyPress:
        return 0
    if event.key() != Qt.Key.Key_F7:
        return 0
    return -1 if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else 1


def _alt_arrow_step(event: QEvent) -> int:
    """+1 for Alt+Down, -1 for Alt+Up, 0 for any other event."""
    if not isinstance(event, QKeyEvent) or event.type() != QEvent.Type.KeyPress:
        return 0
    if not event.modifiers() & Qt.KeyboardModifier.AltModifier:
        return 0
    return {Qt.Key.Key_Down: 1, Qt.Key.Key_Up: -1}.get(Qt.Key(event.key()), 0)
