"""What the operator does in the window against a server that lists no agents."""

from __future__ import annotations

from tests.window_steps import LOAD_TIMEOUT_MS, sign_in
from widgets.window.main_window import MainWindow


def connect(qtbot, window: MainWindow, url: str, token: str = "ann-secret") -> None:
    """Sign in; the server lists no agents, so none opens by itself."""
    sign_in(qtbot, window, url, token, first_agent=False)


def open_by_id(qtbot, window: MainWindow, agent_id: str) -> None:
    """Press "Open agent by id…", type the id, press Open, wait for the Task on screen."""
    with qtbot.waitSignal(window.agent_opened, timeout=LOAD_TIMEOUT_MS):
        window.sidebar.open_by_id_button.click()
        dialog = window.sidebar.open_by_id_dialog
        assert dialog is not None and dialog.isVisible()
        qtbot.keyClicks(dialog.id_edit, agent_id)
        dialog.open_button.click()
