"""View › Start a run asks first: it says what a run gets and does, Cancel the default."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from widgets.dialogs.confirm import ConfirmDropDialog

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from app.desk.open_task import OpenTask

START_RUN_KEYS = "Ctrl+Alt+R"
"""Not Ctrl+R: that is reload in most programs, pressed by habit; a run is a record on the
server that stays in the agent's history."""


def run_question(agent_name: str, version: int | None, unsaved: bool) -> str:
    saved = f"its saved Task (v{version})" if version is not None else "its saved Task"
    text = (
        f"Start a run of {agent_name} now? The run gets {saved} with its embeds inlined, as "
        "the agent would get it at this moment, and is listed under Runs; later saves don't "
        "change it. On the reference server a run starts no model and costs nothing: it "
        "records what the agent gets. An orchestrator starts the agent's work with it."
    )
    if unsaved:
        text += " Your unsaved edits are not in it: save them first to run them."
    return text


class RunConfirmation(QObject):
    """Asks before ``start()``; the question is ``dialog`` while it is open."""

    def __init__(self, tab: OpenTask, start: Callable[[], None], *, parent: QWidget) -> None:
        super().__init__(parent)
        self._tab = tab
        self._parent = parent
        self._start = start
        self.dialog: ConfirmDropDialog | None = None

    def ask(self) -> None:
        tab = self._tab
        if tab.agent is None or tab.connection is None or self.dialog is not None:
            return
        live = tab.state.live
        dialog = ConfirmDropDialog(
            "Start a run",
            run_question(tab.agent.name, live.version if live else None, tab.has_unsaved()),
            "Start the &run",
            self._parent,
        )
        self.dialog = dialog
        dialog.finished.connect(self._on_finished)
        dialog.open()

    def _on_finished(self, result: int) -> None:
        dialog, self.dialog = self.dialog, None
        if dialog is not None:
            dialog.deleteLater()
        if result:
            self._start()
