"""A slow server: the operator sees progress, and no request is sent whose answer is known."""

from __future__ import annotations

import re

from app.core.models import AgentRow
from tests.interop.steps import connect, open_by_id
from tests.spec_server import CRLF_TASK, SpecServer
from tests.window_steps import LOAD_TIMEOUT_MS
from widgets.task.live_preview import PREPARING, WAITING_FOR_TASK
from widgets.window.main_window import MainWindow


def test_opening_a_task_reads_it_once_and_never_asks_for_notes_the_server_lacks(
    qtbot, make_window, spec_server: SpecServer
) -> None:
    window: MainWindow = make_window()
    connect(qtbot, window, spec_server.url)
    assert window.connection is not None and window.connection.features.note_text is False
    notes_at_sign_in = [r.path for r in spec_server.requests if "/api/notes/" in r.path]
    open_by_id(qtbot, window, "a_writer")
    qtbot.waitUntil(lambda: window.task_tab.last_preview is not None, timeout=LOAD_TIMEOUT_MS)
    window.runner.wait_idle()
    reads = spec_server.seen("GET", "/a_writer/files/task.md")
    assert len(reads) == 1, [r.path for r in spec_server.requests]
    # Sign-in found out the server has no note endpoint: the preview never asks again.
    notes = [r.path for r in spec_server.requests if "/api/notes/" in r.path]
    assert notes == notes_at_sign_in


def test_a_slow_server_shows_note_lookups_in_progress_in_the_preview(
    qtbot, make_window, spec_server: SpecServer
) -> None:
    spec_server.variations.note_text = True
    window: MainWindow = make_window()
    connect(qtbot, window, spec_server.url)
    assert window.connection is not None and window.connection.features.note_text is True
    spec_server.variations.delay = 1.0  # every answer from now on takes a second
    notice = window.task_tab.preview.loading_notice
    # The look-up by id takes a second; the Task's read is handed over, the notes are asked.
    open_by_id(qtbot, window, "a_writer")
    qtbot.waitUntil(
        lambda: notice.isVisible() and "notes" in notice.text(), timeout=LOAD_TIMEOUT_MS
    )
    assert re.fullmatch(r"Loading notes \(\d of \d\)…", notice.text()), notice.text()
    qtbot.waitUntil(lambda: not notice.isVisible(), timeout=LOAD_TIMEOUT_MS)
    preview = window.task_tab.last_preview
    assert preview is not None and "Be kind." in preview.expansion.text


def test_a_slow_task_read_says_it_is_loading(qtbot, make_window, spec_server: SpecServer) -> None:
    window: MainWindow = make_window()
    connect(qtbot, window, spec_server.url)
    assert window.connection is not None
    clerk = AgentRow("a_clerk", "a_clerk", "", 0)  # remembered from an earlier start
    window.connection.add_agent(clerk)
    window.agent_model.add_agent(clerk)
    spec_server.variations.delay = 1.0
    notice = window.task_tab.preview.loading_notice
    with qtbot.waitSignal(window.agent_opened, timeout=LOAD_TIMEOUT_MS):
        window.open_agent("a_clerk")  # never read here: no copy to show meanwhile
        qtbot.waitUntil(notice.isVisible, timeout=LOAD_TIMEOUT_MS)
        assert notice.text() == "Loading the Task…"
    qtbot.waitUntil(lambda: not notice.isVisible(), timeout=LOAD_TIMEOUT_MS)
    assert window.task_tab.editor.text() == CRLF_TASK


def test_while_another_agents_preview_is_prepared_the_last_one_is_not_shown(
    qtbot, make_window, spec_server: SpecServer
) -> None:
    window: MainWindow = make_window()
    connect(qtbot, window, spec_server.url)
    open_by_id(qtbot, window, "a_writer")
    panel = window.task_tab.preview
    qtbot.waitUntil(lambda: "Draft replies." in panel.pane.toPlainText(), timeout=LOAD_TIMEOUT_MS)
    assert window.task_tab.provenance.text()  # the writer's: who changed it last
    panel.show_agent_text()
    qtbot.waitUntil(lambda: "Draft replies." in panel.agent_text_view.toPlainText())
    spec_server.variations.delay = 1.0  # the clerk's Task takes a second to come
    clerk = AgentRow("a_clerk", "a_clerk", "", 0)
    assert window.connection is not None
    window.connection.add_agent(clerk)
    window.agent_model.add_agent(clerk)
    with qtbot.waitSignal(window.agent_opened, timeout=LOAD_TIMEOUT_MS):
        window.open_agent("a_clerk")
        # Under the clerk's name, the writer's words are gone: a line says what is coming.
        qtbot.waitUntil(panel.pane.is_placeholder, timeout=LOAD_TIMEOUT_MS)
        assert panel.pane.toPlainText() == WAITING_FOR_TASK
        assert panel.agent_text_view.toPlainText() == ""
        assert panel.agent_text_view.placeholderText() == WAITING_FOR_TASK
        # Nor the writer's sizes or who changed the writer's Task last.
        meters = window.task_tab.size_meters
        assert meters.task_meter.figures() == "… of 256 KB"
        assert meters.embeds_meter.figures() == "… of 64 KB"
        assert window.task_tab.provenance.text() == ""
    qtbot.waitUntil(
        lambda: "File the forms." in panel.agent_text_view.toPlainText(),
        timeout=LOAD_TIMEOUT_MS,
    )
    assert panel.agent_text_view.placeholderText() == ""
    assert window.task_tab.provenance.text().endswith("v1")  # the clerk's own
    assert "…" not in window.task_tab.size_meters.task_meter.figures()
    panel.show_agent_text(False)
    qtbot.waitUntil(lambda: "File the forms." in panel.pane.toPlainText())
    assert not panel.pane.is_placeholder()


def test_once_the_task_is_in_the_preview_says_it_is_being_prepared(
    qtbot, make_window, spec_server: SpecServer
) -> None:
    spec_server.variations.note_text = True
    window: MainWindow = make_window()
    connect(qtbot, window, spec_server.url)
    open_by_id(qtbot, window, "a_clerk")
    panel = window.task_tab.preview
    qtbot.waitUntil(lambda: "File the forms." in panel.pane.toPlainText(), timeout=LOAD_TIMEOUT_MS)
    spec_server.variations.delay = 1.0  # the writer's Task, then each of its notes, are slow
    open_by_id(qtbot, window, "a_writer")  # returns once the Task is in the editor
    qtbot.waitUntil(lambda: panel.pane.toPlainText() == PREPARING, timeout=LOAD_TIMEOUT_MS)
    assert "File the forms." not in panel.agent_text_view.toPlainText()
    qtbot.waitUntil(lambda: "Be kind." in panel.pane.toPlainText(), timeout=LOAD_TIMEOUT_MS)
