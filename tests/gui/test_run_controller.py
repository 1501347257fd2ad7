"""The Runs controller without a window: a narrow OpenTask, the real server, typed outcomes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from app.connect.connection import Connection, open_connection
from app.core.models import AgentRow
from app.desk.run_controller import AGENT_GONE, RunController
from app.desk.runner import Runner
from app.desk.session_state import SessionState
from app.render.preview_notes import PreviewNotes
from app.store import LocalStore
from tests.live_server import LiveServer

TIMEOUT = 10_000


@dataclass
class OneTask:
    """An OpenTask with no tab behind it: an agent on a connection, nothing unsaved."""

    connection: Connection | None
    agent: AgentRow | None
    state: SessionState = field(default_factory=SessionState)
    preview_notes: PreviewNotes | None = None

    def editor_text(self) -> str:
        return ""

    def has_unsaved(self) -> bool:
        return False


@pytest.fixture
def connection(live_server: LiveServer, tmp_path: Path) -> Iterator[Connection]:
    with LocalStore(tmp_path / "store.sqlite3") as store:
        opened = open_connection(live_server.url, live_server.token("ann"), store=store)
        yield opened
        opened.close()


@pytest.fixture
def runner(qapp: Any) -> Iterator[Runner]:
    running = Runner()
    yield running
    assert running.shutdown(15_000)


def test_a_run_started_comes_back_as_a_signal_and_joins_the_list(
    qtbot: Any, connection: Connection, runner: Runner
) -> None:
    scout = next(a for a in connection.agents if a.id == "a_scout")
    controller = RunController(runner, OneTask(connection, scout))
    with qtbot.waitSignal(controller.run_started, timeout=TIMEOUT) as started:
        controller.start_run()
    agent_id, run = started.args
    assert agent_id == "a_scout" and run.task_source.version >= 1
    with qtbot.waitSignal(controller.runs_listed, timeout=TIMEOUT) as listed:
        controller.refresh_runs()
    assert listed.args[0] == "a_scout" and listed.args[2] == ""
    assert run.id in [r.id for r in listed.args[1]]
    assert controller.history["a_scout"]  # what it inlined, for References


def test_an_agent_the_server_does_not_know_is_said_gone_from_a_typed_error(
    qtbot: Any, connection: Connection, runner: Runner
) -> None:
    ghost = AgentRow("a_ghost", "Ghost", "guild_ops", 1)
    controller = RunController(runner, OneTask(connection, ghost))
    with qtbot.waitSignal(controller.runs_listed, timeout=TIMEOUT) as listed:
        controller.refresh_runs()
    assert listed.args == ["a_ghost", [], AGENT_GONE]
    with qtbot.waitSignal(controller.refused, timeout=TIMEOUT) as refused:
        controller.start_run()
    assert refused.args == ["The run was not started: this agent no longer exists."]


def test_an_answer_for_an_agent_no_longer_open_is_dropped(
    qtbot: Any, connection: Connection, runner: Runner
) -> None:
    scout = next(a for a in connection.agents if a.id == "a_scout")
    task = OneTask(connection, scout)
    controller = RunController(runner, task)
    seen: list[object] = []
    controller.runs_listed.connect(lambda *args: seen.append(args))
    controller.refresh_runs()
    task.agent = next(a for a in connection.agents if a.id == "a_writer")
    runner.wait_idle()
    qtbot.waitUntil(lambda: "a_scout" in controller.history, timeout=TIMEOUT)
    assert seen == []
