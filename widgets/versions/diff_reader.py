"""The compare read aloud: every changed line as a row of a table a screen reader walks.

The compare canvas paints its rows itself, so assistive technology sees one picture. This
table (after VS Code's and Meld's accessible diff viewers) holds the same changes as items:
each row has both line numbers, what happened to the line, and the text on each side, and
its accessible description is the whole row as one sentence. It is built only when shown.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from app.core.diff_model import SideBySide, build_diff
from app.core.diff_reading import ReadRow, change_rows, row_sentence

HEADERS = ("Left line", "Right line", "Change", "Left text", "Right text")
AnyIndex = QModelIndex | QPersistentModelIndex


class ChangeRowsModel(QAbstractTableModel):
    """The changed lines of one compare, as table rows."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows: list[ReadRow] = []
        self._first_row: dict[int, int] = {}

    def set_compare(self, model: SideBySide, old: str, new: str) -> None:
        self.beginResetModel()
        self._rows = change_rows(model, old, new)
        self._first_row = {}
        for number, row in enumerate(self._rows):
            self._first_row.setdefault(row.change, number)
        self.endResetModel()

    def first_row_of(self, change: int) -> int:
        """The table row where change ``change`` starts; -1 when there is none."""
        return self._first_row.get(change, -1)

    def row_at(self, number: int) -> ReadRow:
        return self._rows[number]

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 (Qt's default)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> str | None:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        return None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> str | None:
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        if role == Qt.ItemDataRole.AccessibleDescriptionRole:
            return row_sentence(row)
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return None
        column = index.column()
        if column == 0:
            return "" if row.old_line is None else str(row.old_line)
        if column == 1:
            return "" if row.new_line is None else str(row.new_line)
        if column == 2:
            return row.kind
        return row.old_text if column == 3 else row.new_text


class DiffReader(QTableView):
    """The table of changed lines; ``show_change`` selects a change's first row."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows = ChangeRowsModel(self)
        self.setModel(self.rows)
        self.setObjectName("DiffReader")
        self.setAccessibleName("Changes, line by line")
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setWordWrap(False)
        self.verticalHeader().hide()
        header = self.horizontalHeader()
        for column in (0, 1, 2):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        for column in (3, 4):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        self._source: tuple[SideBySide, str, str] = (build_diff("", ""), "", "")
        self._stale = False

    def set_compare(self, model: SideBySide, old: str, new: str) -> None:
        """Hold the compare; its rows are built when the table is next shown."""
        self._source = (model, old, new)
        self._stale = True
        if self.isVisible():
            self._build()

    def _build(self) -> None:
        if self._stale:
            self._stale = False
            self.rows.set_compare(*self._source)

    def showEvent(self, event: QShowEvent) -> None:
        self._build()
        super().showEvent(event)

    def show_change(self, change: int) -> None:
        """Select and scroll to the first row of change ``change``."""
        self._build()
        number = self.rows.first_row_of(change)
        if number < 0:
            return
        index = self.rows.index(number, 3)
        self.setCurrentIndex(index)
        self.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtTop)

    def current_change(self) -> int:
        """The change of the current row; -1 with no row."""
        index = self.currentIndex()
        return self.rows.row_at(index.row()).change if index.isValid() else -1
