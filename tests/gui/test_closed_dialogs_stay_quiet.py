"""A dialog or panel that was opened and closed never answers again: every shared model reset,
a theme change and a new connection afterwards run without an error (no closed dialog's
closure or method is left connected to the window's long-lived parts)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog

from app.core.models import AgentRow, Guild
from tests.live_server import LiveServer
from tests.window_steps import LOAD_TIMEOUT_MS, open_agent, said, sign_in
from widgets.common.theme import DARK, LIGHT, apply_theme
from widgets.dialogs.connect import ConnectRequest
from widgets.window.main_window import MainWindow
from widgets.window.messages import Severity


def _open_dialogs(window: MainWindow) -> list[QDialog]:
    return [d for d in window.findChildren(QDialog) if d.isVisible()]


def _open_and_close(qtbot, window: MainWindow, open_it: Callable[[], object]) -> None:
    """``open_it()`` shows one dialog (at once or after its work on the runner); Esc it and
    wait until it has gone (deleted or hidden)."""
    before = set(map(id, _open_dialogs(window)))
    open_it()
    qtbot.waitUntil(
        lambda: any(id(d) not in before for d in _open_dialogs(window)), timeout=LOAD_TIMEOUT_MS
    )
    dialog = next(d for d in _open_dialogs(window) if id(d) not in before)
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not _open_dialogs(window), timeout=LOAD_TIMEOUT_MS)


def _every_dialog_and_panel(qtbot, window: MainWindow) -> None:
    tab, actions = window.task_tab, window.actions_
    insight = tab.insight
    steps: list[Callable[[], object]] = [
        actions.insert_note.trigger,
        actions.insert_table.trigger,
        actions.local_history.trigger,
        actions.shortcuts.trigger,
        actions.getting_started.trigger,
        actions.about.trigger,
        actions.editing.go_to_line.trigger,
        window.sidebar.ask_agent_id,
        insight.open_budget,
        lambda: tab.links.on_embed_clicked("org/o_acme/guilds/guild_ops/style-guide.md"),
        lambda: tab.links.on_external_link("https://example.com/"),
    ]
    for step in steps:
        _open_and_close(qtbot, window, step)
    # The panels: opened and shut again.
    for action in [actions.versions, *insight.commands.panel_actions.values()]:
        action.setChecked(True)
        qtbot.waitUntil(lambda: tab.isVisible(), timeout=LOAD_TIMEOUT_MS)
        action.setChecked(False)
    actions.find.trigger()
    tab.work_area.find_bar.hide()


def _reset_every_shared_model(qtbot, window: MainWindow, url: str, token: str) -> None:
    tab = window.task_tab
    notes = tab.editor.embeddable_model
    notes.set_notes(list(notes.notes()))
    window.sidebar.model.set_agents(
        [AgentRow("a_x", "Xena", "g_x", 1)], [Guild("g_x", "Elsewhere")]
    )
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, DARK)
    apply_theme(app, LIGHT)
    with qtbot.waitSignal(window.agent_opened, timeout=LOAD_TIMEOUT_MS):
        window.connect_to(ConnectRequest(url, token, remember=False))
    qtbot.waitUntil(lambda: window.runner.is_idle(), timeout=LOAD_TIMEOUT_MS)
    with qtbot.waitSignal(window.agent_opened, timeout=2 * LOAD_TIMEOUT_MS):
        window.actions_.open_local.trigger()  # File › Open local workspace, as reported
    qtbot.waitUntil(lambda: window.runner.is_idle(), timeout=LOAD_TIMEOUT_MS)


def test_closed_dialogs_and_panels_stay_quiet_through_resets_and_a_new_connection(
    qtbot, make_window, live_server: LiveServer
) -> None:
    window = make_window()
    sign_in(qtbot, window, live_server.url, live_server.token("ann"))
    open_agent(qtbot, window, "a_writer")
    qtbot.waitUntil(lambda: window.task_tab.last_preview is not None, timeout=LOAD_TIMEOUT_MS)
    _every_dialog_and_panel(qtbot, window)
    # pytest-qt fails the test on any exception raised in a slot from here on.
    _reset_every_shared_model(qtbot, window, live_server.url, live_server.token("ann"))
    assert said(window, Severity.ERROR) == []
