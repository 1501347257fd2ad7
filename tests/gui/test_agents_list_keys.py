"""The arrow keys in the agents list step over guild headings: every stop is an agent."""

from __future__ import annotations

from PySide6.QtCore import Qt

from widgets.window.agent_list_model import AGENT_ID_ROLE, IS_GUILD_ROLE
from widgets.window.main_window import MainWindow

Key = Qt.Key


def test_up_and_down_never_stop_on_a_guild_heading(qtbot, window: MainWindow) -> None:
    view = window.sidebar.list_view
    model = view.model()
    headings = [r for r in range(model.rowCount()) if model.index(r, 0).data(IS_GUILD_ROLE)]
    assert len(headings) >= 2, "the demo has several guilds"
    view.setFocus()
    first_agent = next(r for r in range(model.rowCount()) if r not in headings)
    view.setCurrentIndex(model.index(first_agent, 0))
    qtbot.keyClick(view, Key.Key_Up)  # only a heading above: stays on the first agent
    assert view.currentIndex().row() == first_agent
    seen = []
    for _ in range(model.rowCount()):
        qtbot.keyClick(view, Key.Key_Down)
        seen.append(view.currentIndex().row())
    assert not set(seen) & set(headings)
    agents = [r for r in range(model.rowCount()) if r not in headings]
    assert sorted(set(seen) | {first_agent}) == agents  # and none was skipped
    qtbot.keyClick(view, Key.Key_Home)
    assert view.currentIndex().data(AGENT_ID_ROLE)
    qtbot.keyClick(view, Key.Key_End)
    assert view.currentIndex().data(AGENT_ID_ROLE)
