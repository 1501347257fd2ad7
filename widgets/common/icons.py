"""The one place that names Taskdesk's icons (qtawesome icon fonts, crisp at any scale)."""

from __future__ import annotations

from functools import cache
from typing import Literal

from PySide6.QtCore import QEvent, QObject, QRect, QSize
from PySide6.QtGui import QIcon, QIconEngine, QPainter, QPixmap
from PySide6.QtWidgets import QLabel

from widgets.common import qtawesome_qt
from widgets.common.theme import current_theme

qtawesome_qt.install()  # before qtawesome loads: see there (220 ms before the first paint)

import qtawesome as qta  # noqa: E402  (after the line above, on purpose)

IconName = Literal[
    "warning",
    "info",
    "error",
    "offline",
    "budget",
    "draft",
    "conflict",
    "compare",
    "restore",
    "retry",
    "find",
    "previous",
    "next",
    "close",
    "note",
    "collection",
    "history",
    "unreachable",
    "agent",
    "person",
    "edit",
    "preview",
    "side_by_side",
    "more",
    "change_previous",
    "change_next",
    "unfold",
    "take",
    "read_aloud",
]

_GLYPHS: dict[str, str] = {
    "warning": "fa6s.triangle-exclamation",
    "info": "fa6s.circle-info",
    "error": "fa6s.circle-xmark",
    "offline": "fa6s.plug-circle-xmark",
    "budget": "fa6s.scale-unbalanced",
    "draft": "fa6s.life-ring",
    "conflict": "fa6s.code-compare",
    "compare": "fa6s.code-compare",
    "restore": "fa6s.rotate-left",
    "retry": "fa6s.arrow-rotate-right",
    "find": "fa6s.magnifying-glass",
    "previous": "fa6s.chevron-up",
    "next": "fa6s.chevron-down",
    "close": "fa6s.xmark",
    "note": "fa6s.file-lines",
    "collection": "fa6s.table",
    "history": "fa6s.clock-rotate-left",
    "unreachable": "fa6s.link-slash",
    "agent": "fa6s.robot",
    "person": "fa6s.user",
    "edit": "fa6s.pen",
    "preview": "fa6s.eye",
    "side_by_side": "fa6s.table-columns",
    "more": "fa6s.angles-right",
    "change_previous": "fa6s.arrow-up",
    "change_next": "fa6s.arrow-down",
    "unfold": "fa6s.up-down",
    "take": "fa6s.reply",
    "read_aloud": "fa6s.list",
}
_FONTS = {glyph.split(".", 1)[0] for glyph in _GLYPHS.values()}

# Calm colours from the light or dark theme; warnings and errors stand out, the rest don't.
_COLOURS: dict[str, str] = {
    "warning": "warning_mark",
    "budget": "warning_mark",
    "conflict": "warning_mark",
    "draft": "md_link",
    "offline": "muted",
    "error": "danger_mark",
    "unreachable": "danger_mark",
    "info": "md_link",
}
_DEFAULT_COLOUR = "muted"


@cache
def _tinted(name: str, colour: str) -> QIcon:
    _load_fonts_used()
    return qta.icon(_GLYPHS[name], color=colour)


def _load_fonts_used() -> None:
    """qtawesome's first icon loads all twelve fonts it bundles, hashing each and parsing
    each charmap: 150 ms on the GUI thread at the first paint. Only the ones named above
    are loaded (through its singleton, which its own ``icon`` then uses)."""
    import qtawesome

    if qtawesome._resource["iconic"] is None:
        from qtawesome.iconic_font import IconicFont

        fonts = [f for f in qtawesome._BUNDLED_FONTS if f[0] in _FONTS]
        qtawesome._resource["iconic"] = IconicFont(*fonts)


class _ThemedIconEngine(QIconEngine):
    """Draws the icon in the colour of the look shown now, so toolbars and banners made in
    the light look turn with the rest when the system switches to dark."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self._name = name

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        device = painter.device()
        ratio = device.devicePixelRatioF() if device is not None else 1.0
        side = min(rect.width(), rect.height())  # a glyph is square: centred, never stretched
        pixels = round(side * ratio)
        drawn = QPixmap(self.pixmap(QSize(pixels, pixels), mode, state))
        drawn.setDevicePixelRatio(ratio)
        square = QRect(0, 0, side, side)
        square.moveCenter(rect.center())
        painter.drawPixmap(square, drawn)

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        token = _COLOURS.get(self._name, _DEFAULT_COLOUR)
        colour = getattr(current_theme(), token)
        return _drawn(self._name, colour, size.width(), size.height(), mode, state)

    def clone(self) -> QIconEngine:
        return _ThemedIconEngine(self._name)


@cache
def _drawn(
    name: str, colour: str, width: int, height: int, mode: QIcon.Mode, state: QIcon.State
) -> QPixmap:
    """Each glyph drawn once per colour, size and mode: a list paints one per row it shows,
    and qtawesome draws each in Python (a picker row's icon cost 0.4 ms a paint)."""
    return _tinted(name, colour).pixmap(QSize(width, height), mode, state)


def icon(name: IconName, colour: str | None = None) -> QIcon:
    """The icon for ``name``, tinted with its usual colour in the look shown now (light or
    dark, following it), unless ``colour`` is given."""
    if colour is not None:
        return _tinted(name, colour)
    return _themed(name)


@cache
def _themed(name: IconName) -> QIcon:
    return QIcon(_ThemedIconEngine(name))


class _PixmapRefresher(QObject):
    """Sets a label's icon pixmap again when the look changes (a pixmap is fixed colours)."""

    def __init__(self, label: QLabel, name: IconName, size: int) -> None:
        super().__init__(label)
        self.name, self.size = name, size
        label.installEventFilter(self)
        self._drawn_in = current_theme()
        label.setPixmap(icon(name).pixmap(size, size))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() in (QEvent.Type.PaletteChange, QEvent.Type.StyleChange)
            and isinstance(watched, QLabel)
            and current_theme() is not self._drawn_in  # a label moved or polished: same look
        ):
            self._drawn_in = current_theme()
            watched.setPixmap(icon(self.name).pixmap(self.size, self.size))
        return False


def show_icon(label: QLabel, name: IconName, size: int) -> None:
    """Show icon ``name`` in ``label`` at ``size`` px, redrawn when light and dark switch."""
    for old in label.findChildren(_PixmapRefresher):
        label.removeEventFilter(old)
        old.deleteLater()
    _PixmapRefresher(label, name, size)
