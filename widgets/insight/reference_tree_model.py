"""References as a tree model: the Task's embeds and named files, each inlined note's below it."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from app.core.reference_words import what_the_run_gets
from app.core.references import Reference, References
from app.core.viewer_reach import is_hidden
from widgets.common.icons import icon
from widgets.common.plain_text import inert_tooltip
from widgets.preview.size_meters import format_kb

REFERENCE_ROLE = Qt.ItemDataRole.UserRole + 1
COLUMNS = ("Reference", "Hop", "The run gets")
AnyIndex = QModelIndex | QPersistentModelIndex

_OUTCOME_WORDS = {
    "repeat": "earlier inline's title",
    "collection": "collection name",
    "marker": "marker",
    "text": "left as text (hop 3)",
    "named": "named only (the path as text)",
}


def short_path(path: str, head: str) -> str:
    """The path without ``head`` (``org/<this org's id>/``), which the org's paths share;
    another org's path stays whole."""
    if head and path.startswith(head) and len(path) > len(head):
        return path[len(head) :]
    return path or "(empty)"


def what_the_run_does(item: Reference) -> str:
    """One phrase per outcome: ``inlined, 1.2 KB (v3)``, ``marker: no access``."""
    if item.outcome == "inlined":
        version = f" (v{item.version})" if item.version is not None else ""
        return f"inlined, {format_kb(item.bytes or 0)}{version}"
    if item.outcome in ("repeat", "collection"):
        return f"{_OUTCOME_WORDS[item.outcome]}: {item.title}"
    if item.outcome == "marker" and is_hidden(item.reason):
        return "the note (you can't see its text)"
    if item.outcome == "marker" and item.reason is not None:
        return f"marker: {item.reason.code.replace('_', ' ')}"
    if item.outcome == "named":
        return f"named only ({item.kind or 'nothing there'})"
    return _OUTCOME_WORDS[item.outcome]


def explanation(item: Reference) -> str:
    """The whole story of one reference, for the detail line and its tooltip: where it is,
    then what the run gets, in the words ``taskdesk references`` uses too."""
    where = f"Hop {item.hop}, line {item.position.line} of {item.in_path or 'the Task'}."
    return f"{where} {what_the_run_gets(item)}"


class _Node:
    __slots__ = ("children", "item", "parent", "row")

    def __init__(self, item: Reference | None, parent: _Node | None, row: int) -> None:
        self.item = item
        self.parent = parent
        self.row = row
        self.children: list[_Node] = []


class ReferenceTreeModel(QAbstractItemModel):
    """Rows are references in the order a run meets them; an inlined note's are its children."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._root = _Node(None, None, 0)
        self._head = ""

    def set_references(self, references: References | None) -> None:
        self.beginResetModel()
        self._root = _Node(None, None, 0)
        self._head = ""
        if references is not None:
            parts = references.task_path.split("/")
            self._head = f"org/{parts[1]}/" if len(parts) > 2 and parts[0] == "org" else ""
            self._add(self._root, references.items)
        self.endResetModel()

    def _add(self, parent: _Node, items: tuple[Reference, ...]) -> None:
        for row, item in enumerate(items):
            node = _Node(item, parent, row)
            parent.children.append(node)
            self._add(node, item.children)

    def reference(self, index: AnyIndex) -> Reference | None:
        node = self._node(index)
        return node.item if node is not self._root else None

    def _node(self, index: AnyIndex) -> _Node:
        if not index.isValid():
            return self._root
        node = index.internalPointer()
        assert isinstance(node, _Node)
        return node

    # ---------------------------------------------------------------- the model API

    def index(self, row: int, column: int, parent: AnyIndex = QModelIndex()) -> QModelIndex:  # noqa: B008 (Qt's signature)
        node = self._node(parent)
        if not 0 <= row < len(node.children) or not 0 <= column < len(COLUMNS):
            return QModelIndex()
        return self.createIndex(row, column, node.children[row])

    def parent(self, index: AnyIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid():
            return QModelIndex()
        parent = self._node(index).parent
        if parent is None or parent is self._root:
            return QModelIndex()
        return self.createIndex(parent.row, 0, parent)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._node(parent).children)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        item = self.reference(index)
        if item is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            shown = (short_path(item.path, self._head), str(item.hop), what_the_run_does(item))
            return shown[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            return inert_tooltip(f"{item.path}\n{explanation(item)}")  # paths, titles: as written
        if role == Qt.ItemDataRole.AccessibleDescriptionRole:
            return f"{item.path}\n{explanation(item)}"
        if role == Qt.ItemDataRole.DecorationRole and column == 0:
            if item.outcome == "marker" and not is_hidden(item.reason):
                return icon("unreachable")  # a note the agent reads is drawn as a note
            return icon("collection" if item.outcome == "collection" else "note")
        if role == REFERENCE_ROLE:
            return item
        return None
