"""Tooltips follow the look: a dark box in the dark look (they were light boxes), a dark box
on the light look as before, each with text that reads and an edge that shows."""

from __future__ import annotations

from PySide6.QtGui import QColor

from widgets.common.theme import DARK, LIGHT, palette, stylesheet


def _lightness(colour: str) -> float:
    return QColor(colour).lightnessF()


def test_the_dark_looks_tooltip_is_a_dark_box_with_light_text() -> None:
    assert _lightness(DARK.colour("tooltip").name()) < 0.3
    assert _lightness(DARK.colour("tooltip_ink").name()) > 0.8
    assert abs(_lightness(DARK.colour("tooltip").name()) - _lightness(DARK.window)) < 0.2


def test_the_stylesheet_and_palette_carry_it() -> None:
    css = stylesheet(DARK)
    box = css[css.index("QToolTip {") : css.index("}", css.index("QToolTip {"))]
    assert DARK.colour("tooltip").name() in box.lower() and "border: 1px solid" in box
    from PySide6.QtGui import QPalette

    assert palette(DARK).color(QPalette.ColorRole.ToolTipBase) == DARK.colour("tooltip")
    assert _lightness(LIGHT.colour("tooltip").name()) < 0.3  # the light look keeps its dark box
