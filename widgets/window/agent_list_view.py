"""The agents list's view: the arrow keys step over guild headings, which only label rows."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QListView

from widgets.window.agent_list_model import IS_GUILD_ROLE

Move = QAbstractItemView.CursorAction
_UPWARD = {Move.MoveUp, Move.MovePageUp, Move.MovePrevious, Move.MoveLeft, Move.MoveEnd}


class AgentListView(QListView):
    """A guild heading is never the current row: Up, Down, Page Up/Down, Home and End land
    on the nearest agent in the direction of the move (a heading was a focus stop where
    Return did nothing)."""

    def moveCursor(
        self, action: QAbstractItemView.CursorAction, modifiers: Qt.KeyboardModifier
    ) -> QModelIndex:
        index = super().moveCursor(action, modifiers)
        model = self.model()
        step = -1 if action in _UPWARD else 1
        row = index.row()
        while 0 <= row < model.rowCount() and model.index(row, 0).data(IS_GUILD_ROLE):
            row += step
        if not 0 <= row < model.rowCount():
            # Nothing but headings that way (Up from the first agent): stay where we are.
            current = self.currentIndex()
            return current if current.isValid() else index
        return model.index(row, 0)
