"""Focus shows on every kind of control, and meaning never rests on colour alone."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QTextCharFormat, QTextDocument
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QToolButton,
    QWidget,
)
from pytestqt.qtbot import QtBot

from widgets.common.theme import DARK, LIGHT, Theme, stylesheet
from widgets.editor.highlighter import TaskHighlighter
from widgets.window.banners import MessageBar


def _grab(widget: QWidget) -> QImage:
    QApplication.processEvents()
    return widget.grab().toImage()


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=["light", "dark"])
@pytest.mark.parametrize("kind", ["close", "tool", "push", "default", "line", "check"])
def test_a_focused_control_looks_different_from_an_unfocused_one(
    qtbot: QtBot, theme: Theme, kind: str
) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    host.setStyleSheet(stylesheet(theme))
    bar = MessageBar(host)
    bar.show_message("Saved as v2.")
    controls: dict[str, QWidget] = {
        "close": bar.close_button,
        "tool": QToolButton(text="Previous change"),
        "push": QPushButton("Compare"),
        "default": QPushButton("Connect", default=True),
        "line": QLineEdit("x"),
        "check": QCheckBox("Match case"),
    }
    layout = QHBoxLayout(host)
    layout.addWidget(bar)
    for name, control in controls.items():
        if name != "close":
            layout.addWidget(control)
        control.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    other = QPushButton("elsewhere")
    layout.addWidget(other)
    host.show()
    host.activateWindow()
    qtbot.waitUntil(host.isActiveWindow)
    target = controls[kind]
    other.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(other.hasFocus)
    unfocused = _grab(target)
    # Focus given by code (as a dialog opening does), not by Tab: the ring shows all the same.
    target.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(target.hasFocus)
    assert _grab(target) != unfocused


def test_a_table_embed_differs_from_a_note_embed_by_shape_not_hue_alone() -> None:
    document = QTextDocument()
    highlighter = TaskHighlighter(document)
    note = highlighter.embed_formats["inlined"]
    table = highlighter.embed_formats["collection"]
    unreachable = highlighter.embed_formats["unreachable"]
    shapes = {(fmt.underlineStyle(), fmt.fontItalic()) for fmt in (note, table, unreachable)}
    assert len(shapes) == 3  # each kind has its own line under it (none, dashes, a wave)
    assert table.underlineStyle() == QTextCharFormat.UnderlineStyle.DashUnderline


def test_the_sidebar_marks_unreachable_with_an_icon_not_a_dot() -> None:
    from widgets.window.sidebar import unreachable_icon

    assert not unreachable_icon(LIGHT).isNull()
    assert unreachable_icon(DARK).cacheKey() != unreachable_icon(LIGHT).cacheKey()
