"""Side by side with References open leaves the editor room to edit in a 1280 px window:
References go down to their minimum and the preview gives way, so the editor keeps 400 px
(it was left ~230 px), whichever of the two was opened first."""

from __future__ import annotations

import pytest

from tests.live_server import LiveServer
from tests.window_steps import LOAD_TIMEOUT_MS, WindowFactory, sign_in
from widgets.window.main_window import MainWindow

EDITOR_MIN_WIDTH = 400  # about 50 characters: room to edit a rule in


def _side_by_side(qtbot, window: MainWindow) -> None:
    tab = window.task_tab
    window.actions_.side_by_side.trigger()
    qtbot.waitUntil(lambda: tab.editor.isVisible() and tab.preview.isVisible())


def _references(qtbot, window: MainWindow) -> None:
    tab = window.task_tab
    tab.insight.commands.panel_actions["references"].trigger()
    qtbot.waitUntil(lambda: tab.side_panel is not None and tab.side_panel.isVisible())


@pytest.mark.parametrize("first", ["side by side", "references"])
def test_the_editor_keeps_room_beside_the_preview_and_references(
    qtbot, make_window: WindowFactory, live_server: LiveServer, first: str
) -> None:
    window = make_window()
    window.resize(1280, 800)
    sign_in(qtbot, window, live_server.url, live_server.token("ann"))
    sidebar = window.sidebar.width()
    steps = [_side_by_side, _references]
    for step in steps if first == "side by side" else reversed(steps):
        step(qtbot, window)
    tab = window.task_tab
    panel = tab.side_panel
    assert panel is not None
    qtbot.waitUntil(lambda: tab.editor.width() >= EDITOR_MIN_WIDTH, timeout=LOAD_TIMEOUT_MS)
    # Everything still in view, each at a width it can be read in.
    assert tab.preview.isVisible() and panel.isVisible()
    assert tab.preview.width() >= tab.preview.minimumSizeHint().width()
    assert panel.width() == panel.minimumWidth()  # References gave way first
    assert window.sidebar.width() == sidebar  # the sidebar as the operator left it
    assert tab.editor.width() + tab.preview.width() + panel.width() <= window.width()
