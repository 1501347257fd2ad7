"""A proposal's hunks as a list: each one's few words, its decision, whether it is placed."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from app.core.proposal_review import Decision, Hunk, HunkDecision

_Index = QModelIndex | QPersistentModelIndex
CANNOT_PLACE = "couldn't place this change"
DECIDED = {Decision.ACCEPT: "accepted", Decision.REJECT: "rejected", Decision.EDIT: "edited"}
HUNK_KEY_ROLE = Qt.ItemDataRole.UserRole + 1


def hunk_line(hunk: Hunk, decided: HunkDecision | None) -> str:
    """ "2. accepted · couldn't place this change — Change: Keep replies short": the state
    first, so a narrow list still shows it."""
    state = DECIDED[decided.decision] if decided else "to decide"
    if not hunk.placeable:
        state += f" · {CANNOT_PLACE}"
    return f"{hunk.index + 1}. {state} — {hunk.summary}"


class HunkListModel(QAbstractListModel):
    """One row per hunk, in text order; the decisions come from the review desk."""

    def __init__(self) -> None:
        super().__init__()
        self.hunks: tuple[Hunk, ...] = ()
        self._decisions: Mapping[str, HunkDecision] = {}

    def set_hunks(self, hunks: tuple[Hunk, ...], decisions: Mapping[str, HunkDecision]) -> None:
        self.beginResetModel()
        self.hunks, self._decisions = hunks, decisions
        self.endResetModel()

    def decisions_changed(self, decisions: Mapping[str, HunkDecision]) -> None:
        self._decisions = decisions
        if self.hunks:
            self.dataChanged.emit(self.index(0), self.index(len(self.hunks) - 1))

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self.hunks)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self.hunks):
            return None
        hunk = self.hunks[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return hunk_line(hunk, self._decisions.get(hunk.key))
        if role == HUNK_KEY_ROLE:
            return hunk.key
        return None
