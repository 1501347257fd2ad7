"""The real window against the independent spec server with its variations switched on."""

from __future__ import annotations

from tests.interop.steps import connect, open_by_id
from tests.spec_server import SCOUT_LIVE, SpecServer
from tests.window_steps import LOAD_TIMEOUT_MS, said, saved, type_at_end
from widgets.window.main_window import MainWindow
from widgets.window.messages import Severity


def test_open_edit_and_save_with_every_variation_on(
    qtbot, make_window, spec_server: SpecServer
) -> None:
    v = spec_server.variations
    v.time_offset = v.unknown_fields = v.reordered_keys = v.gzip = v.chunked = True
    v.connection_close = True
    v.prefix = "/orchestrator"
    v.etags = "weak"
    window: MainWindow = make_window()
    connect(qtbot, window, spec_server.url)
    open_by_id(qtbot, window, "a_scout")
    assert window.task_tab.editor.text() == SCOUT_LIVE
    type_at_end(qtbot, window, "Ann's rule.")
    window.actions_.save.trigger()
    qtbot.waitUntil(lambda: saved(window), timeout=LOAD_TIMEOUT_MS)
    assert spec_server.agents["a_scout"].content == SCOUT_LIVE + "Ann's rule."
    assert spec_server.agents["a_scout"].version == 4
    assert not said(window, Severity.ERROR)
