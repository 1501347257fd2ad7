"""The live Task and its earlier versions as a list model, newest first."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from app.core.models import TaskDoc
from widgets.common.icons import icon
from widgets.common.provenance import exact_time, relative_time

VERSION_ROLE = Qt.ItemDataRole.UserRole + 1
CONTENT_ROLE = Qt.ItemDataRole.UserRole + 2
IS_LIVE_ROLE = Qt.ItemDataRole.UserRole + 3
ROW_ROLE = Qt.ItemDataRole.UserRole + 4
TITLE_ROLE = Qt.ItemDataRole.UserRole + 5
DETAIL_ROLE = Qt.ItemDataRole.UserRole + 6

UNKNOWN_PERSON = "unknown"
"""Who replaced a version when the server names nobody (a deleted person, a system actor)."""

AnyIndex = QModelIndex | QPersistentModelIndex
Clock = Callable[[], datetime]


@dataclass(frozen=True, slots=True)
class RevisionRow:
    """One version: the live one (``when``/``by`` = its last change) or an earlier one
    (``when``/``by`` = when it was replaced, and by whom)."""

    version: int
    content: str
    when: str | None
    by: str | None
    live: bool
    proposal_author: str | None = None  # published from a proposal by this person
    part_of: str | None = None  # the change set that made this version
    restored_from: int | None = None  # an older version whose text this one has again

    def title(self) -> str:
        """The first line of the row: ``v3``, or ``v4 (live)``, and the change set that made
        it: ``v5 · part of: Rename CSV to Parquet``."""
        title = f"v{self.version} (live)" if self.live else f"v{self.version}"
        return f"{title} · part of: {self.part_of}" if self.part_of else title

    def detail(self, now: datetime) -> str:
        """The second line: ``replaced 16 Feb 2026 by Chen``, ``changed 3 min ago by Ann``."""
        # An earlier version was replaced by someone, even when the server doesn't say who.
        who = f"by {self.by}" if self.by else ("" if self.live else f"by {UNKNOWN_PERSON}")
        restored = f"restored from v{self.restored_from}" if self.restored_from else ""
        if self.live and not self.when:
            return ", ".join(part for part in (who, restored) if part)
        verb = "changed" if self.live else "replaced"
        said = f"{verb} {relative_time(self.when, now)}" + (f" {who}" if who else "")
        if self.proposal_author:
            said += f" · published from a proposal by {self.proposal_author}"
        return said + (f", restored from v{self.restored_from}" if self.restored_from else "")

    def label(self, now: datetime) -> str:
        """Both lines as one, for screen readers and type-to-find in the list."""
        detail = self.detail(now)
        return f"{self.title()} — {detail}" if detail else self.title()


def restored_versions(texts: dict[int, str]) -> dict[int, int]:
    """Each version whose text is an older version's again (a restore, or an edit undone
    by hand, which is the same thing to a reader): version -> the newest such older one.
    The version just before never counts: a save of the same text makes no version."""
    restored: dict[int, int] = {}
    newest_with: dict[str, int] = {}
    for version in sorted(texts):
        text = texts[version]
        older = newest_with.get(text)
        if older is not None and older < version - 1:
            restored[version] = older
        newest_with[text] = version
    return restored


def rows_of(doc: TaskDoc) -> list[RevisionRow]:
    texts = {r.version: r.content for r in doc.revisions} | {doc.version: doc.content}
    restored = restored_versions(texts)
    live = RevisionRow(
        doc.version,
        doc.content,
        doc.updated_at,
        doc.updated_by_name,
        True,
        doc.proposal_author,
        doc.change_set_title,
        restored.get(doc.version),
    )
    earlier = [
        RevisionRow(
            r.version,
            r.content,
            r.replaced_at,
            r.replaced_by_name,
            False,
            r.proposal_author,
            r.change_set_title,
            restored.get(r.version),
        )
        for r in sorted(doc.revisions, key=lambda r: r.version, reverse=True)
    ]
    return [live, *earlier]


class RevisionModel(QAbstractListModel):
    """Row 0 is the live version; then every earlier one, newest first."""

    def __init__(self, parent: QObject | None = None, *, clock: Clock | None = None) -> None:
        super().__init__(parent)
        self._rows: list[RevisionRow] = []
        self._clock: Clock = clock or (lambda: datetime.now(UTC))

    def set_task(self, doc: TaskDoc) -> None:
        self.beginResetModel()
        self._rows = rows_of(doc)
        self.endResetModel()

    def clear(self) -> None:
        self.beginResetModel()
        self._rows = []
        self.endResetModel()

    def row_at(self, row: int) -> RevisionRow | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def live(self) -> RevisionRow | None:
        return self._rows[0] if self._rows else None

    def row_of_version(self, version: int) -> int | None:
        for i, row in enumerate(self._rows):
            if row.version == version:
                return i
        return None

    def refresh_times(self) -> None:
        """Reword the relative times (the window calls this on a slow timer)."""
        if self._rows:
            self.dataChanged.emit(
                self.index(0, 0),
                self.index(len(self._rows) - 1, 0),
                [Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, DETAIL_ROLE],
            )

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        row = self.row_at(index.row()) if index.isValid() else None
        if row is None:
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return row.label(self._clock())
        if role == TITLE_ROLE:
            return row.title()
        if role == DETAIL_ROLE:
            return row.detail(self._clock())
        if role == Qt.ItemDataRole.ToolTipRole:
            verb = "Changed" if row.live else "Replaced"
            return f"{verb} {exact_time(row.when)}" if row.when else None
        if role == Qt.ItemDataRole.DecorationRole:
            return icon("edit" if row.live else "history")
        if role == VERSION_ROLE:
            return row.version
        if role == CONTENT_ROLE:
            return row.content
        if role == IS_LIVE_ROLE:
            return row.live
        if role == ROW_ROLE:
            return row
        return None
