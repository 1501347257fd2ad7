"""The unsaved mark (•) in the window title and on the agent's sidebar row."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QTranslator
from PySide6.QtWidgets import QWidget

from widgets.window.agent_list_model import UNSAVED_MARK, AgentListModel

APP_NAME = "Taskdesk"


class _ModifiedMark(QTranslator):
    """Qt draws a modified window's ``[*]`` as ``QWidget::tr("*")``; this makes it "• "."""

    def translate(
        self, context: str, source: str, disambiguation: str | None = None, n: int = -1
    ) -> str | None:
        # None is Qt's "no translation here": every other text stays as it is.
        return f"{UNSAVED_MARK} " if context == "QWidget" and source == "*" else None

    def isEmpty(self) -> bool:
        return False


class UnsavedMarks:
    """Titles the window after the open agent, marked while its Task has unsaved edits.

    The mark is the platform's modified flag (``setWindowModified``: "• " in front of the
    title here, the dot in the close button on macOS); the agent's sidebar row has it too.
    """

    def __init__(self, window: QWidget, model: AgentListModel) -> None:
        self._window = window
        self._model = model
        self._agent_id: str | None = None
        self._name = ""
        self._unsaved = False
        self._translator = _ModifiedMark(window)
        QCoreApplication.installTranslator(self._translator)

    def show_agent(self, agent_id: str | None, name: str = "") -> None:
        if agent_id != self._agent_id:
            self._unsaved = False
        self._agent_id, self._name = agent_id, name
        self._show()

    def on_unsaved(self, agent_id: str, unsaved: bool) -> None:
        self._model.set_unsaved(agent_id, unsaved)
        if agent_id == self._agent_id and unsaved != self._unsaved:
            self._unsaved = unsaved
            self._show()

    def title(self) -> str:
        """The title as the window manager shows it (the placeholder resolved)."""
        handle = self._window.windowHandle()
        return handle.title() if handle is not None else self._window.windowTitle()

    def _show(self) -> None:
        title = f"{self._name} — {APP_NAME}" if self._agent_id is not None else APP_NAME
        # The placeholder only while modified: the plain title stays the plain name.
        if self._unsaved:
            self._window.setWindowTitle(f"[*]{title}")
            self._window.setWindowModified(True)
        else:
            self._window.setWindowModified(False)
            self._window.setWindowTitle(title)
