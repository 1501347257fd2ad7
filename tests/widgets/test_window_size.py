"""The window's first size fits the screen, whatever the font size."""

from __future__ import annotations

from PySide6.QtCore import QSize

from widgets.window.window_size import WANTED, first_size


def test_a_large_screen_gets_the_wanted_size() -> None:
    assert first_size(QSize(2560, 1400)) == WANTED


def test_a_small_or_scaled_screen_gets_a_window_inside_it() -> None:
    # 1400×900 at QT_FONT_DPI=144 offers 933×600 logical pixels.
    size = first_size(QSize(933, 600))
    assert size.width() <= 933 and size.height() <= 600
    assert size == QSize(839, 540)
