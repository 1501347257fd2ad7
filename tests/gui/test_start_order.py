"""What start-up does in which order: the Task tab is built a part at a time with the window's
events handled in between, the notes to insert are listed only after the first preview, and
what only later work needs is not loaded on the way to the first Task."""

from __future__ import annotations

import os
from itertools import pairwise
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject, QTimer

from tests.app_process import run_python
from tests.live_server import LiveServer
from tests.window_steps import LOAD_TIMEOUT_MS, sign_in
from widgets.preview.preview_pane import PreviewPane
from widgets.task import notes_to_insert
from widgets.task.task_tab import TaskTab
from widgets.window import tab_builder
from widgets.window.main_window import MainWindow


class EventLoopTurns:
    """Counts the event loop's passes: a zero timer that posts itself again each time."""

    def __init__(self) -> None:
        self.count = 0
        self._running = True
        QTimer.singleShot(0, self._turn)

    def _turn(self) -> None:
        if self._running:
            self.count += 1
            QTimer.singleShot(0, self._turn)

    def stop(self) -> None:
        self._running = False


class PartsCounted:
    """The event-loop pass in which each of the tab's parts was built, from ``start()``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.turns_at_each_part: list[int] = []
        self._turns: EventLoopTurns | None = None
        build_more = TaskTab.build_more

        def counted(tab: TaskTab) -> bool:
            self.turns_at_each_part.append(self._turns.count if self._turns else 0)
            return build_more(tab)

        monkeypatch.setattr(TaskTab, "build_more", counted)

    def start(self) -> None:
        self._turns = EventLoopTurns()

    def stop(self) -> None:
        if self._turns is not None:
            self._turns.stop()


class PreviewPainted(QObject):
    """Whether the pane has painted a preview (not its placeholder) since ``watch``."""

    def __init__(self) -> None:
        super().__init__()
        self.pane: PreviewPane | None = None
        self.seen = False

    def watch(self, pane: PreviewPane) -> None:
        self.pane = pane
        pane.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        pane = self.pane
        if event.type() == QEvent.Type.Paint and pane is not None and not pane.is_placeholder():
            self.seen = self.seen or bool(pane.document().toPlainText().strip())
        return False


def _start_counting_parts(
    qtbot, make_window, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> tuple[MainWindow, list[int], int]:
    """A window started on ``live_server`` until its tab is whole: the pass of each part,
    and how many parts were built before the first Task was on screen."""
    parts = PartsCounted(monkeypatch)
    monkeypatch.setenv("TASKDESK_TOKEN", live_server.token("ann"))
    window: MainWindow = make_window()
    parts.start()
    try:
        with qtbot.waitSignal(window.agent_opened, timeout=LOAD_TIMEOUT_MS):
            window.start(live_server.url)
        before_task = len(parts.turns_at_each_part)
        tab = window.task_tab
        qtbot.waitUntil(lambda: not tab.building, timeout=LOAD_TIMEOUT_MS)
    finally:
        parts.stop()
    return window, parts.turns_at_each_part, before_task


def test_the_task_tab_is_built_a_part_at_a_time_with_events_in_between(
    qtbot, make_window, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    window, turns_at_each_part, before_task = _start_counting_parts(
        qtbot, make_window, live_server, monkeypatch
    )
    assert before_task >= 5, "the tab is built in several parts"
    # Every part after the first ran in a later pass of the event loop than the one before.
    assert all(b > a for a, b in pairwise(turns_at_each_part))
    tab = window.task_tab
    assert tab.editor.text().strip()
    assert tab.versions is tab.work_area.versions and tab.insight.panel.isHidden()


def test_the_side_panel_follows_the_first_task_a_view_at_a_time(
    qtbot, make_window, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    window, turns_at_each_part, before_task = _start_counting_parts(
        qtbot, make_window, live_server, monkeypatch
    )
    after = turns_at_each_part[before_task:]
    assert len(after) >= 4, "the side panel's views and its flow are parts of their own"
    assert all(b > a for a, b in pairwise(after))
    tab = window.task_tab
    panel = tab.insight.panel
    assert [panel.tabText(i) for i in range(panel.count())] == ["References", "Runs", "Shape"]
    assert panel.isHidden()
    tab.insight.on_panel_toggled("shape", True)  # wired: the View menu's commands show it
    assert panel.isVisible() and panel.current_tab() == "shape"


def test_the_side_panel_waits_for_the_first_preview_to_be_painted(
    qtbot, make_window, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its imports would take Python's lock from the preview being rendered: the rest of the
    tab is built once the first Task's preview is on screen (no fallback timer here)."""
    monkeypatch.setattr(tab_builder, "REST_AT_THE_LATEST_MS", 600_000)
    seen = PreviewPainted()
    painted: list[bool] = []  # per part after the first Task: was its preview painted?
    build_more = TaskTab.build_more

    def watched(tab: TaskTab) -> bool:
        if hasattr(tab, "preview") and seen.pane is None:
            seen.watch(tab.preview.pane)
        if tab.showable:
            painted.append(seen.seen)
        return build_more(tab)

    monkeypatch.setattr(TaskTab, "build_more", watched)
    monkeypatch.setenv("TASKDESK_TOKEN", live_server.token("ann"))
    window: MainWindow = make_window()
    with qtbot.waitSignal(window.agent_opened, timeout=LOAD_TIMEOUT_MS):
        window.start(live_server.url)
    tab = window._tab_builder.tab if window._tab_builder else window.task_tab
    assert tab is not None
    qtbot.waitUntil(lambda: not tab.building, timeout=LOAD_TIMEOUT_MS)
    assert painted and all(painted)


def test_asking_for_the_tab_while_it_is_being_built_finishes_it(
    qtbot, make_window, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TASKDESK_TOKEN", live_server.token("ann"))
    window: MainWindow = make_window()
    window.start(live_server.url)
    qtbot.waitUntil(
        lambda: window._tab_builder is not None and window._tab_builder.tab is not None,
        timeout=LOAD_TIMEOUT_MS,
    )
    tab = window.task_tab  # wanted now: built whole at once, and placed in the window
    assert tab.build_more() is False
    assert tab.parent() is window.splitter and not window._tab_coming()
    with qtbot.waitSignal(window.agent_opened, timeout=LOAD_TIMEOUT_MS):
        pass  # the connection still opens its first agent in the finished tab
    assert window.task_tab is tab and tab.editor.text().strip()


def test_the_preview_renderer_is_warmed_while_the_server_starts(
    qtbot, make_window, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first Task's preview should not wait for the renderer to load: it is loaded on the
    # runner once the tab's modules are in, before the Task is asked for.
    from app.desk import preview_pipeline

    order: list[str] = []
    warm = preview_pipeline.warm_up_renderer
    monkeypatch.setattr(
        preview_pipeline, "warm_up_renderer", lambda: (order.append("warmed"), warm())[1]
    )
    start = preview_pipeline.PreviewPipeline._start
    monkeypatch.setattr(
        preview_pipeline.PreviewPipeline,
        "_start",
        lambda pipeline: (order.append("preview"), start(pipeline))[1],
    )
    monkeypatch.setenv("TASKDESK_TOKEN", live_server.token("ann"))
    window: MainWindow = make_window()
    with qtbot.waitSignal(window.agent_opened, timeout=LOAD_TIMEOUT_MS):
        window.start(live_server.url)
    qtbot.waitUntil(lambda: "preview" in order, timeout=LOAD_TIMEOUT_MS)
    assert order[0] == "warmed"
    assert order.count("warmed") == 1


def test_the_notes_to_insert_are_listed_after_the_first_preview(
    qtbot, make_window, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(notes_to_insert, "NOTES_AT_THE_LATEST_MS", 60_000)
    live_server.hook("delay", seconds=0.5, path="/api/notes/")  # a slow preview: notes wait
    order: list[str] = []
    window: MainWindow = make_window()
    window.notes_listed.connect(lambda: order.append("notes listed"))
    window.connected.connect(
        lambda: window.task_tab.live_preview.shown.connect(lambda _r: order.append("preview"))
    )
    sign_in(qtbot, window, live_server.url, live_server.token("ann"))
    qtbot.waitUntil(lambda: "notes listed" in order, timeout=LOAD_TIMEOUT_MS)
    assert order[0] == "preview"
    assert window.task_tab.editor.embeddable_model.rowCount() > 0


def test_without_an_agent_to_preview_the_notes_are_listed_all_the_same(
    qtbot, make_window, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(notes_to_insert, "NOTES_AT_THE_LATEST_MS", 50)
    window: MainWindow = make_window()
    # Nothing previews: an agent id no one has, so the first Task never shows.
    monkeypatch.setattr(MainWindow, "open_agent", lambda self, agent_id: None)
    with qtbot.waitSignal(window.notes_listed, timeout=LOAD_TIMEOUT_MS):
        sign_in(qtbot, window, live_server.url, live_server.token("ann"), first_agent=False)
    assert window.task_tab.live_preview.last_preview is None
    assert window.task_tab.editor.embeddable_model.rowCount() > 0


def test_a_window_closed_before_its_notes_are_listed_does_not_list_them(
    qtbot, make_window, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    window: MainWindow = make_window()
    monkeypatch.setattr(MainWindow, "open_agent", lambda self, agent_id: None)  # no preview
    listed: list[object] = []
    window.notes_listed.connect(lambda: listed.append(True))
    sign_in(qtbot, window, live_server.url, live_server.token("ann"), first_agent=False)
    window.runner.shutdown()  # the window closes before the notes' timer fires
    # Past the timer: an error in the event loop would fail this test.
    qtbot.wait(notes_to_insert.NOTES_AT_THE_LATEST_MS + 300)
    assert listed == []


LOADED_LATER = (
    "markdown_it",
    "rapidfuzz",
    "keyring",
    "widgets.versions.diff_view",
    "widgets.dialogs.confirm",
    "widgets.task.keep_mine_dialog",
    "widgets.versions.restore_dialog",
    "widgets.editor.insert_picker",
    "widgets.notes.move_to_note",
    "app.desk.note_extract",
    "app.core.merge",
)
"""The renderer (the first preview loads it on the runner), the note search and diffs (loaded
after the first Task), the keyring (only when a token is looked up there); the comparison,
the conflict's, a restore's, the Insert and Move to a note dialogs and the merge (loaded
after the first Task too, or when first used)."""


def test_the_way_to_the_first_task_leaves_the_renderer_search_and_keyring_for_later(
    tmp_path: Path,
) -> None:
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "import widgets.launcher, widgets.window.main_window, widgets.task.task_tab\n"
        "import app.client, app.connect.connection\n"
        "from app.connect.connection import token_store\n"
        "found = token_store('http://127.0.0.1:1').token_for('http://127.0.0.1:1')\n"
        "assert found is not None and found.source == 'environment', found\n"
        f"print(sorted(m for m in {LOADED_LATER!r} if m in sys.modules))\n"
    )
    env = dict(os.environ, TASKDESK_HOME=str(tmp_path), TASKDESK_TOKEN="op-secret")
    result = run_python(code, dict(env, QT_QPA_PLATFORM="offscreen"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


NOT_BEFORE_THE_FIRST_PAINT = ("QDialog", "QDialogButtonBox", "QFormLayout", "QMessageBox", "QStyle")
"""Qt classes the window doesn't show at first: PySide6 builds every enum of a class the
first time the class is touched (QStyle's alone are ~300 values), so they wait."""

FIRST_PAINT = """
import sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication
from widgets.launcher import open_window, prepare_application

app = QApplication([])
prepare_application(app)
import PySide6.QtWidgets as widgets

seen = {}

class FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and not seen:
            later = (
                "widgets.window.banners",
                "widgets.window.open_by_id_dialog",
                "app.client.event_stream",  # the live feed's HTTP stream (http.client, email)
                "app.desk.session_steps",  # the Task session's steps
                "logging.handlers",  # the log file's handler: the file opens after the paint
                "app.core.models",  # the records (dataclasses, ~6 ms): with the first connection
                "app.store.records",  # the offline copy's records
                "html",  # escaping a tooltip's rich text
            )
            seen["classes"] = [name for name in NAMES if name in widgets.__dict__]
            seen["modules"] = [m for m in later if m in sys.modules]
            seen["icon"] = not app.windowIcon().isNull()
            QTimer.singleShot(300, app.quit)
        return False

window = open_window(app, "http://127.0.0.1:9")  # nothing answers there: no local server
probe = FirstPaint()
window.installEventFilter(probe)
app.exec()
print(seen["classes"], seen["modules"], seen["icon"], not app.windowIcon().isNull())
window._closing_confirmed = True
window.shutdown()
"""


def test_the_first_paint_leaves_dialogs_streams_styles_and_the_icon_for_later(
    tmp_path: Path,
) -> None:
    code = f"NAMES = {NOT_BEFORE_THE_FIRST_PAINT!r}\n" + FIRST_PAINT
    env = dict(os.environ, TASKDESK_HOME=str(tmp_path), QT_QPA_PLATFORM="offscreen")
    result = run_python(code, env)
    assert result.returncode == 0, result.stderr
    # Nothing of them at the first paint; the window's icon follows it.
    assert result.stdout.strip() == "[] [] False True"


LOG_LATER = """
import logging, sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication
from widgets import launcher

app = QApplication([])
launcher.prepare_application(app)
window = launcher.open_window(app, "http://127.0.0.1:9")  # nothing answers there
seen = []

def painted():
    logging.getLogger("taskdesk.test").warning("said before the log file opened")
    seen.append(window.log_path)  # the paint: no log file yet

def late():
    seen.append(window.log_path)
    app.quit()

window.first_painted.connect(painted)
QTimer.singleShot(launcher.LOG_FILE_AFTER_PAINT_MS + 800, late)
app.exec()
print(repr(seen[0]), open(seen[1], encoding="utf-8").read().count("said before the log file"))
window._closing_confirmed = True
window.shutdown()
"""


def test_the_log_file_opens_after_the_first_task_had_time_to_show(tmp_path: Path) -> None:
    """Not at the first paint (its opening held the first Task back ~12 ms): later, with
    what was logged meanwhile written into it."""
    env = dict(os.environ, TASKDESK_HOME=str(tmp_path), QT_QPA_PLATFORM="offscreen")
    result = run_python(LOG_LATER, env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "None 1"
