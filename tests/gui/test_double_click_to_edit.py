"""Double-clicking the preview opens Edit with the cursor where the operator clicked."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.core.source_position import source_position
from tests.window_steps import open_agent
from widgets.window.main_window import MainWindow

TIMEOUT = 10_000


def _double_click_on(qtbot, window: MainWindow, words: str) -> None:
    pane = window.task_tab.preview.pane
    found = pane.document().find(words)
    assert not found.isNull(), words
    found.setPosition(found.selectionStart() + 2)
    point = pane.cursorRect(found).center()
    qtbot.mouseClick(pane.viewport(), Qt.MouseButton.LeftButton, pos=point)
    qtbot.mouseDClick(pane.viewport(), Qt.MouseButton.LeftButton, pos=point)


def test_the_cursor_lands_where_the_preview_was_double_clicked(qtbot, window: MainWindow) -> None:
    open_agent(qtbot, window, "a_writer")
    tab = window.task_tab
    qtbot.waitUntil(lambda: "operator to review" in tab.preview.pane.toPlainText(), timeout=TIMEOUT)
    _double_click_on(qtbot, window, "operator to review")
    assert tab.modes.currentWidget() is not tab.preview
    source = tab.editor.text()
    assert tab.editor.textCursor().position() == source.index("operator to review") + 2

    tab.set_mode_edit(False)
    _double_click_on(qtbot, window, "One draft per ticket")  # a list item
    assert tab.editor.textCursor().position() == source.index("One draft per ticket") + 2


def test_source_position_maps_plain_text_and_falls_back_to_the_block() -> None:
    source = "# Title\n\nSome **bold** words here.\n\n- an item\n"
    assert source_position(source, "Some bold words here.", 10) == source.index("words")
    assert source_position(source, "Title", 2) == source.index("Title") + 2
    assert source_position(source, "an item", 3) == source.index("an item") + 3
    assert source_position(source, "nowhere at all", 3) is None
