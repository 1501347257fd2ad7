"""The sidebar keeps its width through Versions, Compare and Restore (it narrowed at each
redraw: the compare's button row asked for more width than the Task side had, and the
window's splitter took it from the sidebar). The compare's buttons drop their names to
their icons instead, and every one stays whole in view."""

from __future__ import annotations

from PySide6.QtCore import QRect

from app.client import TaskdeskClient
from app.core.models import TaskDoc
from tests.live_server import LiveServer
from tests.window_steps import LOAD_TIMEOUT_MS, WindowFactory, sign_in
from widgets.common.folding_bar import BESIDE
from widgets.window.main_window import MainWindow

AGENT = "a_scout"  # opens first, seeded with earlier versions


def _an_earlier_other_text(live: TaskDoc) -> int:
    return next(r.version for r in live.revisions if r.content != live.content)


def _buttons_whole(window: MainWindow) -> bool:
    """Every button of the compare inside it, none squeezed below what it needs."""
    view = window.task_tab.versions.diff_view
    inside = QRect(0, 0, view.width(), view.height())
    for button in (view.previous_button, view.next_button, view.take_button, view.read_button):
        place = QRect(button.mapTo(view, button.rect().topLeft()), button.size())
        if not inside.contains(place) or button.width() < button.sizeHint().width():
            return False
    return True


def test_versions_compare_and_restore_leave_the_sidebar_as_wide_as_it_was(
    qtbot, make_window: WindowFactory, live_server: LiveServer
) -> None:
    window = make_window()
    window.resize(1280, 800)
    sign_in(qtbot, window, live_server.url, live_server.token("ann"))
    sidebar = window.sidebar
    width = sidebar.width()
    assert width > sidebar.minimumSizeHint().width()  # room to narrow, as it did
    tab = window.task_tab
    panel = tab.versions
    with TaskdeskClient(live_server.url, live_server.token("bob")) as bob:
        for _ in range(3):
            live = bob.get_task(AGENT)
            window.actions_.versions.trigger()
            qtbot.waitUntil(panel.isVisible, timeout=LOAD_TIMEOUT_MS)
            assert sidebar.width() == width
            version = _an_earlier_other_text(live)
            panel.select_version(version)
            panel.compare_button.click()
            qtbot.waitUntil(
                lambda: (
                    panel.diff_view.model.change_count > 0
                    and panel.diff_view.take_button.isVisible()
                ),
                timeout=LOAD_TIMEOUT_MS,
            )
            qtbot.waitUntil(lambda: panel.diff_view.width() > 0, timeout=LOAD_TIMEOUT_MS)
            panel.diff_view.go_to_change(0)
            assert sidebar.width() == width
            # The bar settles once its buttons' new names are laid out (events, not time).
            qtbot.waitUntil(lambda: _buttons_whole(window), timeout=LOAD_TIMEOUT_MS)
            assert panel.diff_view.take_button.toolButtonStyle() == BESIDE  # named at 1280

            panel.restore_button.click()
            flow = tab.version_flow
            qtbot.waitUntil(lambda f=flow: f.restore_dialog is not None, timeout=LOAD_TIMEOUT_MS)
            assert flow.restore_dialog is not None
            flow.restore_dialog.restore_button.click()
            qtbot.waitUntil(
                lambda v=live.version: bob.get_task(AGENT).version == v + 1,
                timeout=LOAD_TIMEOUT_MS,
            )
            qtbot.waitUntil(
                lambda v=live.version: (
                    tab.state.live is not None and tab.state.live.version == v + 1
                ),
                timeout=LOAD_TIMEOUT_MS,
            )
            assert sidebar.width() == width
            if panel.isVisible():
                window.actions_.versions.trigger()
            assert sidebar.width() == width
    assert window.splitter.sizes()[0] == width
