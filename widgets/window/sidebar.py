"""The sidebar: a filter box over the agents, grouped by guild; choosing one asks to open it.

On a server that lists no agents it also offers "Open agent by id…".
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QFont, QIcon, QPainter
from PySide6.QtWidgets import (
    QLabel,
    QLineEdit,
    QListView,
    QPushButton,
    QStyledItemDelegate,
    QVBoxLayout,
    QWidget,
)

from widgets.common.fields import name_clear_button, show_search_icon
from widgets.common.icons import icon
from widgets.common.theme import Theme, current_theme
from widgets.window.agent_list_model import (
    AGENT_ID_ROLE,
    BROKEN_EMBEDS_ROLE,
    IS_GUILD_ROLE,
    OVER_BUDGET_ROLE,
    AgentListModel,
)
from widgets.window.agent_list_view import AgentListView

if TYPE_CHECKING:  # loaded when first needed: PySide6 builds every enum of a class it hands
    # out, and these classes' enums (~10 ms) are not needed for the first paint
    from PySide6.QtWidgets import QStyleOptionViewItem

    from widgets.window.open_by_id_dialog import OpenAgentByIdDialog


@cache
def unreachable_icon(theme: Theme) -> QIcon:
    """The sidebar's mark for an agent whose Task embeds files it can't reach."""
    return icon("unreachable", theme.danger_mark)


class _AgentDelegate(QStyledItemDelegate):
    """Guild headings in small capitals; a warning mark on agents with unreachable embeds."""

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        # One height for headings and agents: the view then measures one row, not thousands.
        size = super().sizeHint(option, index)
        return QSize(size.width(), max(size.height(), 28))

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        if index.data(IS_GUILD_ROLE):
            painter.save()
            font = QFont(option.font)
            font.setBold(True)
            font.setCapitalization(QFont.Capitalization.AllUppercase)
            font.setPointSizeF(max(font.pointSizeF() * 0.85, 8.0))
            painter.setFont(font)
            painter.setPen(current_theme().colour("muted"))  # 4.5:1 on the list
            rect = option.rect.adjusted(8, 6, -8, 0)
            painter.drawText(
                rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, str(index.data())
            )
            painter.restore()
            return
        from PySide6.QtWidgets import QStyle, QStyleOptionViewItem  # once the list has rows

        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.rect = opt.rect.adjusted(12, 0, 0, 0)
        style = opt.widget.style() if opt.widget else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        if index.data(OVER_BUDGET_ROLE) is not None:
            # A scale, left of where the unreachable dot goes: a mark of its own, not a colour.
            r = option.rect
            icon("budget").paint(painter, QRect(r.right() - 38, r.center().y() - 7, 14, 14))
        if index.data(BROKEN_EMBEDS_ROLE):
            # A shape, not a coloured dot alone: the broken-link icon of the banner.
            r = option.rect
            unreachable_icon(current_theme()).paint(
                painter, QRect(r.right() - 22, r.center().y() - 7, 14, 14)
            )


OPEN_BY_ID = "Open agent by id…"


class Sidebar(QWidget):
    """Agents by guild. ``agent_chosen(agent_id)`` fires when the operator picks one;
    ``agent_id_entered(agent_id, guild_id)`` when they type an id in "Open agent by id…"."""

    agent_chosen = Signal(str)
    agent_id_entered = Signal(str, str)  # agent id, guild id ("" when not given)

    def __init__(self, model: AgentListModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebar")
        self.model = model
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("Filter agents")
        self.filter_edit.setAccessibleName("Filter agents")
        name_clear_button(self.filter_edit, "Clear the filter")
        show_search_icon(self.filter_edit)
        self.filter_edit.textChanged.connect(self.model.set_filter)
        self.list_view = AgentListView()
        self.list_view.setAccessibleName("Agents")
        self.list_view.setModel(model)
        self.list_view.setItemDelegate(_AgentDelegate(self.list_view))
        self.list_view.setUniformItemSizes(True)
        self.list_view.setEditTriggers(QListView.EditTrigger.NoEditTriggers)
        self.list_view.clicked.connect(self._on_activated)
        self.list_view.activated.connect(self._on_activated)
        self.empty_label = QLabel("Loading agents…")
        self.empty_label.setObjectName("sidebarEmpty")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.open_by_id_button = QPushButton(OPEN_BY_ID)
        self.open_by_id_button.setAccessibleName(OPEN_BY_ID.removesuffix("…"))
        self.open_by_id_button.setToolTip("This server doesn't list its agents: open one by id")
        self.open_by_id_button.clicked.connect(self.ask_agent_id)
        self.open_by_id_button.hide()
        self.open_by_id_dialog: OpenAgentByIdDialog | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(6)
        layout.addWidget(self.filter_edit)
        layout.addWidget(self.list_view, 1)
        layout.addWidget(self.empty_label)
        layout.addWidget(self.open_by_id_button)
        self.model.modelReset.connect(self._on_model_reset)
        self._current: str | None = None
        self._empty_text = "Loading agents…"
        self.setMinimumWidth(200)

    def set_empty_text(self, text: str) -> None:
        self._empty_text = text
        self._on_model_reset()

    def offer_open_by_id(self, offered: bool) -> None:
        """Show "Open agent by id…": for servers that don't list their agents."""
        self.open_by_id_button.setVisible(offered)

    def ask_agent_id(self) -> None:
        from widgets.window.open_by_id_dialog import OpenAgentByIdDialog

        dialog = OpenAgentByIdDialog(self)
        self.open_by_id_dialog = dialog

        def done(result: int) -> None:
            self.open_by_id_dialog = None
            dialog.deleteLater()
            if result and dialog.agent_id():
                self.agent_id_entered.emit(dialog.agent_id(), dialog.guild_id())

        dialog.finished.connect(done)
        dialog.open()

    def select_agent(self, agent_id: str) -> None:
        """Mark ``agent_id`` as the open agent without emitting ``agent_chosen``."""
        self._current = agent_id
        row = self.model.row_of(agent_id)
        if row >= 0:
            self.list_view.setCurrentIndex(self.model.index(row))
        else:
            self.list_view.clearSelection()

    def _on_activated(self, index: QModelIndex) -> None:
        agent_id = index.data(AGENT_ID_ROLE)
        if not agent_id or agent_id == self._current:
            return
        # The window may refuse (unsaved edits, Cancel): it calls select_agent with its
        # answer, so put the selection back on the open agent until then.
        if self._current is not None:
            self.select_agent(self._current)
        self.agent_chosen.emit(str(agent_id))

    def _on_model_reset(self) -> None:
        empty = self.model.rowCount() == 0
        filtered = bool(self.filter_edit.text().strip())
        self.empty_label.setText("No agent matches the filter." if filtered else self._empty_text)
        self.empty_label.setVisible(empty)
        if self._current is not None:
            self.select_agent(self._current)
