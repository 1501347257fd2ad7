"""A long status message (the over-256 KB one) has its own space left of Ln/Col: it ends in
"…" where it is cut, and the whole sentence is its tooltip (it ran up under Ln/Col, cut
with no sign that it was)."""

from __future__ import annotations

from tests.live_server import LiveServer
from tests.window_steps import LOAD_TIMEOUT_MS, WindowFactory, sign_in


def test_the_over_256_kb_message_stays_clear_of_ln_col_and_reads_in_full(
    qtbot, make_window: WindowFactory, live_server: LiveServer
) -> None:
    window = make_window()
    window.resize(1000, 700)
    sign_in(qtbot, window, live_server.url, live_server.token("ann"))
    window.actions_.edit.trigger()
    window.task_tab.editor.setPlainText("x" * 300_000)
    window.actions_.save.trigger()
    bar = window.statusBar()
    qtbot.waitUntil(lambda: "the limit is 256 KB" in bar.currentMessage(), timeout=LOAD_TIMEOUT_MS)
    full = bar.currentMessage()

    message = window.status_line.message
    position = window.status_line.position_label
    qtbot.waitUntil(lambda: message.isVisible() and position.isVisible(), timeout=LOAD_TIMEOUT_MS)
    assert not message.geometry().intersects(position.geometry())
    assert message.geometry().right() < position.geometry().left()
    for label in (window.status_line.server_label, window.status_line.person_label):
        assert not message.geometry().intersects(label.geometry())
    # Cut where it has no room, and it says so; the whole sentence is one hover away.
    assert message.fontMetrics().horizontalAdvance(full) > message.width()
    assert message.text().endswith("…")
    assert message.fontMetrics().horizontalAdvance(message.text()) <= message.contentsRect().width()
    assert message.toolTip() == full
    assert message.accessibleName() == full

    # Wider, more of it shows; a short message shows whole, with nothing cut.
    window.resize(1380, 700)
    qtbot.waitUntil(lambda: message.width() > 700, timeout=LOAD_TIMEOUT_MS)
    window.messages.info("Saved as v7.")
    assert message.text() == "Saved as v7." and not message.is_elided()
