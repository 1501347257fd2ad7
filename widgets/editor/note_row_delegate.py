"""How a note reads in a list: its title with its level as a small tag, then its path."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QFont, QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from widgets.common.theme import current_theme
from widgets.editor.embeddable_model import LEVEL_ROLE, PATH_ROLE, READABLE_ROLE

_LEVEL_COLOURS = {"org": "tag_org", "guild": "tag_guild", "agent": "tag_agent"}  # theme tokens
CANT_READ_MARK = "agent can't read"


class EmbeddableNoteDelegate(QStyledItemDelegate):
    """Two lines per row: the title with its level as a small tag, then the path in grey."""

    _PAD = 6

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        line = option.fontMetrics.height()
        return QSize(320, 2 * line + 3 * self._PAD)

    def text_left(self, option: QStyleOptionViewItem) -> int:
        """Where the title and path start: after the icon the style draws (its size and margin
        are the style's, not a guess), or at the padding when the row has none."""
        widget = option.widget
        style = widget.style() if widget is not None else None
        if style is None or option.icon.isNull():
            return option.rect.left() + self._PAD
        icon = style.subElementRect(QStyle.SubElement.SE_ItemViewItemDecoration, option, widget)
        return max(option.rect.left(), icon.right() + 1) + self._PAD

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        self.initStyleOption(option, index)
        widget = option.widget
        style = widget.style() if widget is not None else None
        # The styled background draws selection and hover like any other list.
        text_backup = option.text
        option.text = ""
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter, widget)
        option.text = text_backup

        rect: QRect = option.rect
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        palette: QPalette = option.palette
        text_colour = palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        )
        metrics = option.fontMetrics
        left = self.text_left(option)  # after the icon, never over the title's first letter
        top = rect.top() + self._PAD
        painter.save()

        level = str(index.data(LEVEL_ROLE) or "")
        tag_font = QFont(option.font)
        tag_font.setPointSizeF(max(tag_font.pointSizeF() * 0.8, 6.0))
        tag_width = metrics.horizontalAdvance(level) + 10 if level else 0

        title_font = QFont(option.font)
        title_font.setWeight(QFont.Weight.DemiBold)
        painter.setFont(title_font)
        painter.setPen(text_colour)
        title_rect = QRect(
            left, top, rect.right() - left - tag_width - 2 * self._PAD, metrics.height()
        )
        title = metrics.elidedText(
            str(index.data() or ""), Qt.TextElideMode.ElideRight, title_rect.width()
        )
        painter.drawText(
            title_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, title
        )

        if level:
            tag_rect = QRect(rect.right() - tag_width - self._PAD, top, tag_width, metrics.height())
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(current_theme().colour(_LEVEL_COLOURS.get(level, "tag_plain")))
            painter.drawRoundedRect(tag_rect, 6, 6)
            painter.setFont(tag_font)
            painter.setPen(current_theme().colour("on_tag"))
            painter.drawText(tag_rect, Qt.AlignmentFlag.AlignCenter, level)

        painter.setFont(option.font)
        unreadable = index.data(READABLE_ROLE) is False
        grey = current_theme().colour("danger_ink" if unreadable else "muted")
        painter.setPen(text_colour if selected else grey)
        path_rect = QRect(
            left,
            top + metrics.height() + self._PAD,
            rect.right() - left - self._PAD,
            metrics.height(),
        )
        path_text = str(index.data(PATH_ROLE) or "")
        if unreadable:  # said in words too, not by colour alone
            path_text = f"⚠ {CANT_READ_MARK} · {path_text}"
        path = metrics.elidedText(path_text, Qt.TextElideMode.ElideMiddle, path_rect.width())
        painter.drawText(
            path_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, path
        )
        painter.restore()
