"""A list row in two lines: a bold title, then a smaller grey detail; both elided, never clipped."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QIcon, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from widgets.common.theme import current_theme

AnyIndex = QModelIndex | QPersistentModelIndex

DETAIL_SCALE = 0.9  # the detail line reads as secondary without turning into fine print


class TwoLineDelegate(QStyledItemDelegate):
    """Paints ``title_role`` in bold over ``detail_role`` in grey, with the row's icon.

    Long text is elided with "…" to the row's width (the full text stays in the model's
    display and tooltip roles), so a narrow list never needs a horizontal scrollbar.
    """

    PAD_X = 8
    PAD_Y = 6
    GAP = 2  # between the two lines
    ICON = 16

    def __init__(
        self,
        title_role: int,
        detail_role: int,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.title_role = title_role
        self.detail_role = detail_role

    @staticmethod
    def title_font(base: QFont) -> QFont:
        font = QFont(base)
        font.setWeight(QFont.Weight.DemiBold)
        return font

    @staticmethod
    def detail_font(base: QFont) -> QFont:
        font = QFont(base)
        if font.pointSizeF() > 0:
            font.setPointSizeF(max(font.pointSizeF() * DETAIL_SCALE, 7.0))
        else:
            font.setPixelSize(max(round(font.pixelSize() * DETAIL_SCALE), 9))
        return font

    def text_left(self, index: AnyIndex) -> int:
        """Where the text starts, from the row's left edge (after the icon, if any)."""
        has_icon = isinstance(index.data(Qt.ItemDataRole.DecorationRole), QIcon)
        return self.PAD_X + (self.ICON + self.PAD_X if has_icon else 0)

    def list_width_for(self, view: QAbstractItemView, title: str, detail: str) -> int:
        """The width ``view`` needs to show these two lines in full, with an icon, the
        vertical scrollbar and the frame: a list's sensible minimum width."""
        text = max(
            QFontMetrics(self.title_font(view.font())).horizontalAdvance(title),
            QFontMetrics(self.detail_font(view.font())).horizontalAdvance(detail),
        )
        row_padding = 3 * self.PAD_X + self.ICON  # both edges, the icon and the gap after it
        scrollbar = view.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        frame = 2 * view.frameWidth()
        return text + row_padding + scrollbar + frame

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        # No text width in the hint: a list lays rows out at least as wide as their hint,
        # so a long line would run past the viewport (clipped) instead of being elided.
        title = QFontMetrics(self.title_font(option.font))
        detail = QFontMetrics(self.detail_font(option.font))
        height = 2 * self.PAD_Y + title.height() + self.GAP + detail.height()
        return QSize(self.text_left(index) + self.PAD_X, height)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        # The style draws the background (selection, hover, focus) as in every other list;
        # the text and icon are drawn here.
        opt.text = ""
        opt.icon = QIcon()
        opt.features &= ~QStyleOptionViewItem.ViewItemFeature.HasDecoration
        # The selection already marks the current row; a focus frame on top of it is noise.
        opt.state &= ~QStyle.StateFlag.State_HasFocus
        widget = opt.widget
        style = widget.style() if widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)

        rect: QRect = option.rect
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        palette: QPalette = option.palette
        ink = palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        )
        muted = QColor(ink) if selected else current_theme().colour("muted")
        if selected:
            muted.setAlphaF(0.75)  # still secondary on any selection colour

        title_font = self.title_font(option.font)
        detail_font = self.detail_font(option.font)
        title_metrics = QFontMetrics(title_font)
        detail_metrics = QFontMetrics(detail_font)
        content_height = title_metrics.height() + self.GAP + detail_metrics.height()
        top = rect.top() + max((rect.height() - content_height) // 2, 0)
        left = rect.left() + self.text_left(index)
        width = max(rect.width() - self.text_left(index) - self.PAD_X, 0)

        painter.save()
        decoration = index.data(Qt.ItemDataRole.DecorationRole)
        if isinstance(decoration, QIcon):
            icon_top = top + (title_metrics.height() - self.ICON) // 2
            decoration.paint(
                painter, QRect(rect.left() + self.PAD_X, icon_top, self.ICON, self.ICON)
            )

        title, detail = self._elided(option.font, index, width)
        align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        painter.setFont(title_font)
        painter.setPen(ink)
        painter.drawText(QRect(left, top, width, title_metrics.height()), align, title)
        painter.setFont(detail_font)
        painter.setPen(muted)
        detail_top = top + title_metrics.height() + self.GAP
        painter.drawText(QRect(left, detail_top, width, detail_metrics.height()), align, detail)
        painter.restore()

    def elided_lines(self, option: QStyleOptionViewItem, index: AnyIndex) -> tuple[str, str]:
        """The two lines exactly as ``paint`` draws them in ``option.rect`` (for tests)."""
        width = max(option.rect.width() - self.text_left(index) - self.PAD_X, 0)
        return self._elided(option.font, index, width)

    def _elided(self, base: QFont, index: AnyIndex, width: int) -> tuple[str, str]:
        elide = Qt.TextElideMode.ElideRight
        title = QFontMetrics(self.title_font(base)).elidedText(
            str(index.data(self.title_role) or ""), elide, width
        )
        detail = QFontMetrics(self.detail_font(base)).elidedText(
            str(index.data(self.detail_role) or ""), elide, width
        )
        return title, detail


def two_line_list(
    model: QAbstractItemModel,
    accessible_name: str,
    roles: tuple[int, int],
    typical: tuple[str, str],
) -> tuple[QListView, TwoLineDelegate]:
    """A read-only, single-selection list drawing each row as title and detail lines.

    Rows elide to the list's width (never a sideways scrollbar); the list is at least as
    wide as a ``typical`` (title, detail) row needs.
    """
    view = QListView()
    view.setModel(model)
    view.setAccessibleName(accessible_name)
    view.setEditTriggers(QListView.EditTrigger.NoEditTriggers)
    view.setSelectionMode(QListView.SelectionMode.SingleSelection)
    delegate = TwoLineDelegate(roles[0], roles[1], view)
    view.setItemDelegate(delegate)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.setUniformItemSizes(True)
    view.setMinimumWidth(delegate.list_width_for(view, *typical))
    return view, delegate
