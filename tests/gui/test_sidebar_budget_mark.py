"""An agent whose embeds are over the budget has a mark of its own in the sidebar."""

from __future__ import annotations

from app.client import TaskdeskClient
from app.core.limits import EMBED_BUDGET_BYTES
from tests.live_server import LiveServer
from tests.window_steps import WindowFactory, sign_in
from widgets.window.agent_list_model import BROKEN_EMBEDS_ROLE, OVER_BUDGET_ROLE

TIMEOUT = 10_000
BIG = "org/o_acme/big-reference.md"


def test_over_budget_agent_is_marked_with_its_size(
    qtbot, make_window: WindowFactory, live_server: LiveServer
) -> None:
    live_server.put_note(
        BIG,
        title="Big reference",
        text="x" * (EMBED_BUDGET_BYTES + 5_000),
        access=[{"principal": "org", "role": "read"}],
    )
    with TaskdeskClient(live_server.url, live_server.token("bob")) as bob:
        writer = bob.get_task("a_writer")
        bob.put_task("a_writer", writer.content + f"\n![[{BIG}]]\n", writer.version)

    window = make_window()
    sign_in(qtbot, window, live_server.url, live_server.token("ann"))
    model = window.agent_model
    writer_row = model.index(model.row_of("a_writer"), 0)
    scout_row = model.index(model.row_of("a_scout"), 0)
    qtbot.waitUntil(lambda: writer_row.data(OVER_BUDGET_ROLE) is not None, timeout=TIMEOUT)
    assert writer_row.data(OVER_BUDGET_ROLE) > EMBED_BUDGET_BYTES
    assert not writer_row.data(BROKEN_EMBEDS_ROLE)  # distinct from the unreachable mark
    tip = writer_row.data(0x03)  # ToolTipRole
    assert "over the embed budget" in tip.lower() and "KB" in tip and "64" in tip
    assert scout_row.data(OVER_BUDGET_ROLE) is None  # unreachable embeds, within budget
    assert scout_row.data(BROKEN_EMBEDS_ROLE)
    assert not window.sidebar.grab().isNull()  # the delegate paints both marks
