"""A Task of exactly the limit opens and saves; ten bytes more are told in bytes."""

from __future__ import annotations

from tests.interop.steps import connect, open_by_id
from tests.spec_server import TASK_LIMIT, SpecServer
from tests.window_steps import LOAD_TIMEOUT_MS, said, type_at_end
from widgets.window.main_window import MainWindow
from widgets.window.messages import Severity


def test_ten_bytes_over_a_task_at_the_limit_says_cut_ten_bytes(
    qtbot, make_window, spec_server: SpecServer
) -> None:
    at_limit = ("Rule.\n" * (TASK_LIMIT // 6)).ljust(TASK_LIMIT, "x")
    assert len(at_limit.encode()) == TASK_LIMIT
    spec_server.set_task("a_scout", at_limit)
    window: MainWindow = make_window()
    connect(qtbot, window, spec_server.url)
    open_by_id(qtbot, window, "a_scout")
    assert window.task_tab.editor.text() == at_limit
    mine = type_at_end(qtbot, window, "0123456789")
    window.actions_.save.trigger()
    qtbot.waitUntil(lambda: bool(said(window, Severity.ERROR)), timeout=LOAD_TIMEOUT_MS)
    (message,) = said(window, Severity.ERROR)
    assert "Cut at least 10 bytes" in message and "0.0 KB" not in message, message
    assert window.task_tab.editor.text() == mine
    assert spec_server.agents["a_scout"].content == at_limit
