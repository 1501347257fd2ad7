"""The fleet against a real spec-only server: the agents opened by id, read one at a time,
with what the server can't tell marked and said; search the same way; the rest said."""

from __future__ import annotations

import itertools
import threading
import time

from app.client import TaskdeskClient
from app.core.fleet_models import EMBEDDED, UNREACHABLE
from app.core.models import AgentRow, TaskDoc
from app.desk.paced_reads import PACE_MS, READ_LIMIT, PacedReads
from app.desk.runner import Runner
from app.desk.spec_fleet import (
    NO_AUDIT,
    NO_CHANGE_SETS,
    NO_MOVE,
    NO_PROMPT_SEARCH,
    SpecFleetHealth,
)
from tests.live_server import LiveServer
from tests.window_steps import said, sign_in
from widgets.fleet.fleet_table_model import UNKNOWN, UNKNOWN_TIP
from widgets.window.main_window import MainWindow

TIMEOUT = 15_000


def open_by_id(qtbot, window: MainWindow, agent_id: str, guild_id: str = "") -> None:
    window.sidebar.open_by_id_button.click()
    dialog = window.sidebar.open_by_id_dialog
    assert dialog is not None
    qtbot.keyClicks(dialog.id_edit, agent_id)
    if guild_id:
        qtbot.keyClicks(dialog.guild_edit, guild_id)
    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT):
        dialog.open_button.click()


def cell(panel, agent: str, column: int, role=None):
    from PySide6.QtCore import Qt

    model = panel.proxy
    row = next(r for r in range(model.rowCount()) if model.index(r, 0).data() == agent)
    return model.index(row, column).data(role if role is not None else Qt.ItemDataRole.DisplayRole)


def test_the_fleet_and_search_over_the_agents_opened_by_id(
    qtbot, make_window, spec_only: LiveServer
) -> None:
    from PySide6.QtCore import Qt

    window: MainWindow = make_window()
    sign_in(qtbot, window, spec_only.url, spec_only.token("ann"), first_agent=False)
    open_by_id(qtbot, window, "a_scout", "guild_ops")
    open_by_id(qtbot, window, "a_writer")  # no guild given: learnt from guild_ops' list
    open_by_id(qtbot, window, "a_analyst")  # no guild given, and in no guild known here

    window.actions_.fleet.trigger()
    view = window.fleet_windows.fleet_view
    assert view is not None
    panel = view.panel
    qtbot.waitUntil(lambda: panel.notice.isVisible(), timeout=TIMEOUT)
    assert panel.proxy.rowCount() == 3
    assert "3 agents opened here" in panel.notice.text()
    assert "aren't known (—)" in panel.notice.text()
    # What the spec tells: the Task's size and shape, and the unreachable embeds.
    assert float(cell(panel, "a_scout", 2)) > 0
    assert int(cell(panel, "a_scout", 4)) > 0  # Scout's Task embeds notes a run can't reach
    assert cell(panel, "a_writer", 4) == ""  # checked (guild learnt), none unreachable
    assert cell(panel, "a_analyst", 4) == UNKNOWN  # no guild known: not checked
    assert cell(panel, "a_writer", 1) == "guild_ops"
    # What only the server could tell: shown as unknown, with why.
    for column in (3, 6, 7, 8):
        assert cell(panel, "a_scout", column) == UNKNOWN
    assert cell(panel, "a_scout", 3, Qt.ItemDataRole.ToolTipRole) == UNKNOWN_TIP
    assert "over budget" not in panel.status.text()
    assert "1 not checked" in panel.status.text()
    with qtbot.waitSignal(window.agent_opened, timeout=TIMEOUT) as opened:
        model = panel.proxy
        row = next(r for r in range(3) if model.index(r, 0).data() == "a_writer")
        panel.table.activated.emit(model.index(row, 0))
    assert opened.args == ["a_writer"]

    window.actions_.search_every_task.trigger()
    dialog = window.fleet_windows.search_dialog
    assert dialog is not None
    assert not dialog.in_prompt.isEnabled() and dialog.in_prompt.toolTip() == NO_PROMPT_SEARCH
    qtbot.keyClicks(dialog.query, "one draft per ticket")
    with qtbot.waitSignal(dialog._search.notice, timeout=TIMEOUT):
        dialog.find_button.click()
    assert [a.id for a in dialog.found] == ["a_writer"]
    assert dialog.status.text().startswith("1 line in 1 Task. Searched the 3 agents opened here")
    assert not dialog.replace_button.isEnabled()
    assert dialog.replace_button.toolTip() == NO_CHANGE_SETS

    window.actions_.audit.trigger()
    assert window.fleet_windows.audit_dialog is None and said(window)[-1] == NO_AUDIT
    window.fleet_windows.open_move_note("org/o_acme/handbook.md")
    assert window.fleet_windows.move_dialog is None and said(window)[-1] == NO_MOVE
    window.fleet_windows.open_replace_preview(["a_writer"], "draft", "reply", False)
    assert window.fleet_windows.preview_dialog is None and said(window)[-1] == NO_CHANGE_SETS


class Recording:
    """The real client, with when each Task read started and ended."""

    def __init__(self, client: TaskdeskClient) -> None:
        self._client = client
        self.spans: list[tuple[float, float]] = []
        self._lock = threading.Lock()

    def get_task(self, agent_id: str) -> TaskDoc:
        began = time.monotonic()
        try:
            return self._client.get_task(agent_id)
        finally:
            with self._lock:
                self.spans.append((began, time.monotonic()))


def test_reads_go_one_at_a_time_paced_bounded_and_the_newest_series_wins(
    qtbot, spec_only: LiveServer
) -> None:
    runner = Runner()
    try:
        with TaskdeskClient(spec_only.url, spec_only.token("ann")) as client:
            recording = Recording(client)
            paced = PacedReads(runner)
            got: list[tuple[str, int]] = []
            ended: list[str] = []

            def series(name: str, count: int) -> list:
                return [lambda: recording.get_task("a_scout") for _ in range(count)]

            def on_first(index: int, value: object, error: BaseException | None) -> None:
                assert error is None and isinstance(value, TaskDoc)
                got.append(("first", index))
                if index == 0:  # a new series while the first has reads to go
                    paced.start(series("second", 3), on_second, lambda: ended.append("second"))

            def on_second(index: int, value: object, error: BaseException | None) -> None:
                got.append(("second", index))

            paced.start(series("first", 5), on_first, lambda: ended.append("first"))
            qtbot.waitUntil(lambda: ended == ["second"], timeout=TIMEOUT)
            assert got == [("first", 0), ("second", 0), ("second", 1), ("second", 2)]
            spans = sorted(recording.spans)
            assert len(spans) == 4
            for (_, end), (start, _) in itertools.pairwise(spans):
                assert start >= end  # never two reads at once
            starts = [s for s, _ in spans]
            # The pace holds across the new series too (QTimer may fire a little early).
            assert all(b - a >= 0.9 * PACE_MS / 1000 for a, b in itertools.pairwise(starts))

            # The bound: a series past READ_LIMIT reads READ_LIMIT (unpaced here, to be quick).
            quick = PacedReads(runner, pace_ms=0)
            counted: list[int] = []
            done: list[bool] = []
            quick.start(
                [lambda: client.get_task("a_writer").version] * (READ_LIMIT + 50),
                lambda i, v, e: counted.append(i),
                lambda: done.append(True),
            )
            qtbot.waitUntil(lambda: bool(done), timeout=60_000)
            assert counted == list(range(READ_LIMIT))
    finally:
        assert runner.shutdown(15_000)


def test_an_agent_that_cannot_be_read_is_named(qtbot, spec_only: LiveServer) -> None:
    runner = Runner()
    try:
        with TaskdeskClient(spec_only.url, spec_only.token("ann")) as client:
            agents = [
                AgentRow("a_writer", "Writer", "guild_ops", 1),
                AgentRow("a_gone", "Gone", "", 1),  # opened once, deleted since
            ]
            health = SpecFleetHealth(runner, client, lambda: agents, lambda: ["guild_ops"])
            rows: list = []
            health.loaded.connect(rows.append)
            with qtbot.waitSignal(health.notice, timeout=TIMEOUT) as notice:
                health.load()
            (writer,) = rows[-1]
            assert writer.id == "a_writer" and UNREACHABLE not in writer.unknown
            assert EMBEDDED in writer.unknown
            assert "2 agents opened here" in notice.args[0]
            assert notice.args[0].endswith(
                "Not read: Gone (a_gone): This agent no longer exists on the server."
            )
    finally:
        assert runner.shutdown(15_000)
