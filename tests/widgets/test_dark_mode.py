"""The look follows the system's colour scheme, and switches live: editor, preview, icons."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from widgets.common.theme import DARK, LIGHT, apply_theme, current_theme, scheme_theme
from widgets.editor.task_editor import TaskEditor
from widgets.preview.preview_pane import PreviewPane
from widgets.window.banners import ConflictBanner


@pytest.fixture
def app_look(qapp: QApplication) -> Iterator[QApplication]:
    """The application's palette and stylesheet, put back after the test."""
    palette, style_sheet = QPalette(qapp.palette()), qapp.styleSheet()
    yield qapp
    qapp.setStyleSheet(style_sheet)
    qapp.setPalette(palette)


def test_the_system_scheme_picks_the_look_unless_overridden() -> None:
    assert scheme_theme(Qt.ColorScheme.Dark) is DARK
    assert scheme_theme(Qt.ColorScheme.Light) is LIGHT
    assert scheme_theme(Qt.ColorScheme.Unknown) is LIGHT
    assert scheme_theme(Qt.ColorScheme.Light, "dark") is DARK
    assert scheme_theme(Qt.ColorScheme.Dark, "light") is LIGHT
    assert scheme_theme(Qt.ColorScheme.Dark, "purple") is DARK  # an unknown override is ignored


def test_switching_to_dark_redraws_the_editor_and_the_preview(
    qtbot: QtBot, app_look: QApplication
) -> None:
    editor = TaskEditor()
    pane = PreviewPane()
    qtbot.addWidget(editor)
    qtbot.addWidget(pane)
    editor.show()
    pane.show()
    editor.set_text("# Inputs\n![[org/o_acme/customers]]\n")
    pane.show_html("<table><tr><th>Level</th></tr><tr><td>Sev 1</td></tr></table>")
    apply_theme(app_look, DARK)
    assert current_theme() is DARK
    qtbot.waitUntil(lambda: editor.highlighter.theme is DARK)
    assert editor.highlighter.heading_format.foreground().color().name() == DARK.md_heading
    qtbot.waitUntil(lambda: DARK.table_grid in pane.document().defaultStyleSheet())
    assert "Sev 1" in pane.toPlainText()  # the shown preview was drawn again, not dropped
    apply_theme(app_look, LIGHT)
    qtbot.waitUntil(lambda: editor.highlighter.theme is LIGHT)


def test_banner_icons_turn_with_the_look(qtbot: QtBot, app_look: QApplication) -> None:
    banner = ConflictBanner()
    qtbot.addWidget(banner)
    banner.show()
    light = banner.icon_label.pixmap().toImage()
    apply_theme(app_look, DARK)
    qtbot.waitUntil(lambda: banner.icon_label.pixmap().toImage() != light)
