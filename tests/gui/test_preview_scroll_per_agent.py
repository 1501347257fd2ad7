"""A newly opened agent's preview starts at the top, or where the operator last read it."""

from __future__ import annotations

from tests.window_steps import LOAD_TIMEOUT_MS, open_agent
from widgets.window.main_window import MainWindow


def test_each_agent_keeps_its_own_preview_position(qtbot, window: MainWindow) -> None:
    window.resize(1000, 420)
    pane = window.task_tab.preview.pane
    bar = pane.verticalScrollBar()
    open_agent(qtbot, window, "a_scout")  # its embeds make it scroll in a small window
    qtbot.waitUntil(lambda: bar.maximum() > 0 and not pane.is_laying_out(), timeout=LOAD_TIMEOUT_MS)
    bar.setValue(bar.maximum())
    assert pane.scroll_fraction() == 1.0

    open_agent(qtbot, window, "a_writer")
    qtbot.waitUntil(lambda: not pane.is_laying_out(), timeout=LOAD_TIMEOUT_MS)
    assert bar.value() == 0, "Writer opened where Scout was left"

    open_agent(qtbot, window, "a_scout")
    qtbot.waitUntil(
        lambda: bar.maximum() > 0 and bar.value() == bar.maximum(), timeout=LOAD_TIMEOUT_MS
    )
