"""A big org end to end (2,000 agents in 80 guilds, 20,000 notes): what the operator sees
comes in the right order and the searches find the right rows. Behaviour only, no timing:
bench/bench_scale.py measures the speed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.live_server import LiveServer, ServerFactory
from tests.window_steps import LOAD_TIMEOUT_MS
from widgets.dialogs.connect import ConnectRequest
from widgets.editor.embeddable_model import PATH_ROLE
from widgets.editor.insert_picker import InsertPickerDialog
from widgets.window.main_window import MainWindow

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from scale_workspace import CI, OPERATOR_TOKEN, agent_id, generate, write

pytestmark = pytest.mark.slow

BIG_WAIT_MS = 120_000  # seeding and expanding 2,000 Tasks on a busy machine: only ends a hang


@pytest.fixture(scope="module")
def big_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write(tmp_path_factory.mktemp("big") / "big.json", CI)


@pytest.fixture
def big_server(server_factory: ServerFactory, big_workspace: Path) -> LiveServer:
    return server_factory(big_workspace)


def _broken_agents() -> set[str]:
    """The agents whose Task embeds a note of another guild (one in ten)."""
    return {agent_id(a) for a in range(CI.agents) if a % 10 == 0}


def test_the_task_shows_first_then_every_guilds_marks_arrive(
    qtbot, make_window, big_server: LiveServer
) -> None:
    # Hold back every embed-status answer: the Task must not wait behind them.
    for path in ("/api/org/embed-status", "/api/guilds/"):
        big_server.hook("delay", seconds=5, path=path)
    window: MainWindow = make_window()
    with qtbot.waitSignal(window.agent_opened, timeout=BIG_WAIT_MS):
        window.connect_to(ConnectRequest(big_server.url, OPERATOR_TOKEN, remember=False))
    qtbot.waitUntil(lambda: window.task_tab.editor.text() != "", timeout=LOAD_TIMEOUT_MS)
    model = window.agent_model
    assert not any(model.broken_embeds(a) for a in _broken_agents())  # not arrived yet
    qtbot.waitUntil(
        lambda: all(model.broken_embeds(a) for a in _broken_agents()), timeout=BIG_WAIT_MS
    )
    marked = {a for a in model.agent_ids() if model.broken_embeds(a)}
    assert marked == _broken_agents()


def test_the_sidebar_filter_and_the_picker_find_the_right_rows(
    qtbot, make_window, big_server: LiveServer
) -> None:
    window: MainWindow = make_window()
    with qtbot.waitSignal(window.agent_opened, timeout=BIG_WAIT_MS):
        window.connect_to(ConnectRequest(big_server.url, OPERATOR_TOKEN, remember=False))
    data = generate(CI)
    sidebar = window.sidebar
    sidebar.filter_edit.setText("00042")
    assert window.agent_model.agent_ids() == ["a00042"]
    guild = data["guilds"][7]
    sidebar.filter_edit.setText(guild["name"])
    expected = sorted(
        (a["name"].casefold(), a["id"]) for a in data["agents"] if a["guild"] == guild["id"]
    )
    assert window.agent_model.agent_ids() == [i for _, i in expected]
    sidebar.filter_edit.clear()
    assert len(window.agent_model.agent_ids()) == CI.agents

    notes = window.task_tab.editor.embeddable_model
    qtbot.waitUntil(lambda: notes.rowCount() == CI.notes + CI.collections, timeout=BIG_WAIT_MS)
    picker = InsertPickerDialog(notes, "note", window)
    qtbot.addWidget(picker)
    picker.search_field.setText("a00042 notes")
    shown = {str(picker.proxy.index(r, 0).data(PATH_ROLE)) for r in range(picker.proxy.rowCount())}
    assert shown == {
        n["path"]
        for n in data["notes"]
        if "a00042" in n["path"].casefold() + n["title"].casefold()
        and "notes" in n["path"] + n["title"].casefold()
    }
    assert shown  # the agent has notes of its own
    picker.search_field.clear()
    # Every note matches (collections are Insert › Table's); a page of them is shown.
    assert picker.proxy.match_count() == CI.notes
